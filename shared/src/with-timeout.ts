/**
 * Settles like `promise`, or after `ms` like `onTimeout` (its value, or its throw) — whichever
 * comes first. The timer is cleared as soon as the race is decided and never keeps a stopping Node
 * process alive. Browser-safe.
 */
export async function withTimeout<T, U>(promise: Promise<T>, ms: number, onTimeout: () => U): Promise<T | U> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<U>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(onTimeout());
      } catch (err) {
        reject(err);
      }
    }, ms);
    (timer as { unref?: () => void }).unref?.();
  });
  try {
    return await Promise.race([promise, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
