/** What is used of a pg.Pool. */
interface Queryable {
  query(text: string): Promise<{ rows: unknown[] }>;
}

/**
 * PostgreSQL's current snapshot (`xmin:xmax:running xids`) as text. It changes whenever a transaction that wrote
 * anything ends, on any connection of any process: its id leaves the running list, or moves `xmax` past it. Reads
 * assign no transaction id and change nothing. A snapshot never returns to an earlier text (xmax only grows; while it
 * stays, the running list only shrinks), so equal marks mean that no write committed in between.
 */
const SNAPSHOT = 'select pg_current_snapshot()::text as mark';

interface Waiter {
  resolve(mark: string): void;
  reject(error: unknown): void;
}

/**
 * The change mark on PostgreSQL (`Db.changeMark`): every caller gets a snapshot read by a query sent after it asked,
 * so a commit that ended before the call is always counted. Callers that ask while a query is under way wait for
 * the next one and share it, so that under load one query at a time answers them all instead of one per request.
 */
export function postgresChangeMark(pool: Queryable): () => Promise<string> {
  let waiting: Waiter[] = [];
  let reading = false;

  const readForWaiting = (): void => {
    reading = true;
    const batch = waiting;
    waiting = [];
    pool
      .query(SNAPSHOT)
      .then(
        ({ rows }) => {
          const { mark } = rows[0] as { mark: string };
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
