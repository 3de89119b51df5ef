import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { pidAlive } from './pid.js';

describe('pidAlive', () => {
  it('knows our own pid is alive and a reaped one is not', () => {
    expect(pidAlive(process.pid)).toBe(true);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    expect(pidAlive(dead)).toBe(false);
  });

  it('counts a process of another user as alive (EPERM)', () => {
    // pid 1 always exists; as root kill(1, 0) succeeds, as a user it fails with EPERM.
    expect(pidAlive(1)).toBe(true);
  });
});
