import type { Api } from './api.ts';

/** What every page is handed: the signed-in API client and a way to move. */
export interface Ctx {
  api: Api;
  main: HTMLElement;
  go(hash: string): void;
  /** UPRNs the customer chose in this tab (opening them again costs nothing new to agree to). */
  chosen: Set<string>;
}
