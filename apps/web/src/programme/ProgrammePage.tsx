import { type QueryFunction, useQuery } from '@tanstack/react-query';
import type { ReactNode, RefObject } from 'react';
import { Navigate, NavLink } from 'react-router';
import { useCurrentUser } from '../api/queries';
import { reasonOf, secondFactorGate, UsersApiError } from '../api/users-api';
import { ErrorAlert } from '../components/ErrorAlert';
import { Loading } from '../components/Loading';
import { Shell } from '../layout/Shell';
import './programme.css';

const NOT_PROGRAMME_ADMIN = 'Alleen programmabeheerders mogen dit doen.';

/** A refusal (4xx) is the answer; only a failure to reach the server is worth asking again. */
const retryUnlessRefused = (failures: number, error: unknown) =>
  !(error instanceof UsersApiError && error.status < 500) && failures < 2;

/**
 * A list of 'Programmabeheer', fetched once the person may see it: a programme administrator past the second
 * factor. A refusal is not asked again.
 */
export function useProgrammeList<T>(queryKey: string[], queryFn: QueryFunction<T>) {
  const me = useCurrentUser();
  const allowed = Boolean(me.data?.isProgrammeAdmin) && me.data !== undefined && !secondFactorGate(me.data);
  return useQuery({ queryKey, queryFn, enabled: allowed, retry: retryUnlessRefused });
}

interface ProgrammeSectionProps {
  id: string;
  title: string;
  /** What is loading ('Organisaties laden…') and what could not be fetched ('de organisaties'). */
  loading: string;
  what: string;
  /** The lists the section shows: it waits for all, and says the first refusal or failure. */
  lists: { isPending: boolean; isError: boolean; error: unknown }[];
  add: { label: string; ref: RefObject<HTMLButtonElement | null>; onPress(): void };
  /** The content once every list is there. */
  children: ReactNode;
}

/** A part of 'Programmabeheer': its heading, then the add button and the list, or why they are not there. */
export function ProgrammeSection({ id, title, loading, what, lists, add, children }: ProgrammeSectionProps) {
  const failed = lists.find((list) => list.isError);
  const refusal = failed ? reasonOf(failed.error) : undefined;
  return (
    <section className="dvp-programme-section" aria-labelledby={id}>
      <h2 id={id} className="utrecht-heading-2">
        {title}
      </h2>
      {!failed && lists.some((list) => list.isPending) && <Loading text={loading} />}
      {failed &&
        (refusal ? (
          <ErrorAlert text={refusal} />
        ) : (
          <ErrorAlert support>
            <p className="utrecht-paragraph">Er is iets misgegaan.</p>
            <p className="utrecht-paragraph">Kan {what} niet ophalen, probeer het later nog eens.</p>
          </ErrorAlert>
        ))}
      {lists.every((list) => !list.isPending && !list.isError) && (
        <>
          <div className="dvp-toolbar">
            <button
              ref={add.ref}
              type="button"
              className="utrecht-button utrecht-button--primary-action"
              onClick={add.onPress}
            >
              {add.label}
            </button>
          </div>
          {children}
        </>
      )}
    </section>
  );
}

/**
 * A page of 'Programmabeheer': the sidebar layout, the heading, the links between its parts ('Organisaties',
 * 'Datavoorzieningen', 'Programmabeheerders'), what the part is for, and its content only for a programme
 * administrator. The sidebar layout sends a person without their second factor to it first, saying why.
 */
export function ProgrammePage({ intro, children }: { intro: ReactNode; children: ReactNode }) {
  const me = useCurrentUser();
  if (me.isPending) return null;
  if (me.isError || !me.data) return <Navigate to="/login" replace />;
  return (
    <Shell>
      <main className="dvp-main" id="inhoud">
        <h1 className="utrecht-heading-1">Programmabeheer</h1>
        <nav className="dvp-programme-nav" aria-label="Programmabeheer">
          <ul>
            <li>
              <NavLink className="utrecht-link" to="/programmabeheer" end>
                Organisaties
              </NavLink>
            </li>
            <li>
              <NavLink className="utrecht-link" to="/programmabeheer/datavoorzieningen" end>
                Datavoorzieningen
              </NavLink>
            </li>
            <li>
              <NavLink className="utrecht-link" to="/programmabeheer/beheerders" end>
                Programmabeheerders
              </NavLink>
            </li>
          </ul>
        </nav>
        <p className="utrecht-paragraph">{intro}</p>
        {me.data.isProgrammeAdmin ? children : <ErrorAlert text={NOT_PROGRAMME_ADMIN} />}
      </main>
    </Shell>
  );
}
