import type { IdpError } from '../api/ory';
import type { CreateParams } from './flow-api';
import type { FlowFailure } from './flow-errors';

/** Where the flow screens differ; every option may be left out. */
export interface FlowOptions {
  /** False keeps the flow's id out of the address, for a screen whose address must not carry one. */
  inAddress?: boolean;
  /** What a new flow is made with (by default the address's `return_to`); false: only a flow named is fetched. */
  create?: false | (() => CreateParams);
  /** Session rules before a flow is loaded: the path to go to instead, or undefined to load. */
  before?: () => Promise<string | undefined>;
  /** A failed submit the screen answers in its own way, before the flow error handler; true when it did. */
  onSubmitError?: (failure: IdpError) => boolean | Promise<boolean>;
  /** Replaces starting over (forget the flow and the query, then make a new flow). */
  restart?: (notice?: string) => void;
}

/** What the screen must say went wrong: while loading or sending; the server out of reach, or an unknown answer. */
export interface FlowProblem {
  during: 'load' | 'submit';
  cause: 'unreachable' | 'failed' | 'busy';
}

/** How a submit ended: the answer (and the flow it shows, if it is one), a failure, or nothing sent without a flow. */
export type Submitted<F> = { kind: 'done'; answer: unknown; flow?: F } | FlowFailure<F> | { kind: 'not_sent' };
