/**
 * Whether a process with this pid exists. `process.kill(pid, 0)` sends nothing: ESRCH means no
 * such process; EPERM means it exists but belongs to another user (so it is alive).
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
