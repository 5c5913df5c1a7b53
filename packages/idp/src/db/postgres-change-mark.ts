import { CHECK_MARK } from './check-marks.js';

/** What is used of a pg.Pool. */
interface Queryable {
  query(text: string): Promise<{ rows: unknown[] }>;
}

interface Waiter {
  resolve(mark: string): void;
  reject(error: unknown): void;
}

/**
 * The check mark on PostgreSQL (`Db.changeMark`, check-marks.ts): every caller gets the counter read by a query sent
 * after it asked, so a commit that ended before the call is always counted. Callers that ask while a query is under
 * way wait for the next one and share it, so that under load one query at a time answers them all instead of one
 * per request.
 */
export function postgresChangeMark(pool: Queryable): () => Promise<string> {
  let waiting: Waiter[] = [];
  let reading = false;

  const readForWaiting = (): void => {
    reading = true;
    const batch = waiting;
    waiting = [];
    pool
      .query(CHECK_MARK.sql.postgres)
      .then(
        ({ rows }) => {
          const mark = String((rows[0] as { n: string | number }).n);
          for (const waiter of batch) waiter.resolve(mark);
        },
        (error: unknown) => {
          for (const waiter of batch) waiter.reject(error);
        },
      )
      .finally(() => {
        reading = false;
        if (waiting.length > 0) readForWaiting();
      });
  };

  return () =>
    new Promise<string>((resolve, reject) => {
      waiting.push({ resolve, reject });
      if (!reading) readForWaiting();
    });
}
