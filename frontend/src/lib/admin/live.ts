/**
 * The admin panel's live connection (SPEC §4 "Live connection", §7): `/ws` on the site's own
 * origin, `admin_auth` with the token on open, `new_purchase` notices, a reconnect 3 s after
 * every close (SPEC §9). A refusal of the token (close code 1008) stops it: retrying a bad token
 * forever helps nobody, the caller signs the admin out instead. Notices sent while the
 * connection was down are lost, so each authentication after the first is reported
 * (`onAuthenticated(true)`) for the caller to refetch what it shows.
 */
export interface NewPurchaseNotice {
  customerName: string;
  purchaseId: number;
  reference: string;
  raffleId: number;
  ticketCount: number;
  totalAmount: string;
  createdAt: string;
}

export type LiveState = "connecting" | "live" | "offline";

export interface LiveOptions {
  url: string;
  token: () => string | null;
  onPurchase: (notice: NewPurchaseNotice) => void;
  /** The server accepted the token; `again` is true for every time after the first. */
  onAuthenticated?: (again: boolean) => void;
  /** The server refused the token (close 1008): sign in again. */
  onRefused?: (reason: string) => void;
  onState?: (state: LiveState) => void;
  /** The wait before reconnecting after a close (the spec's 3 s). */
  reconnectMs?: number;
  /** For tests. */
  createSocket?: (url: string) => WebSocket;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export const POLICY_VIOLATION = 1008;
/** The refusal's reason when the session goes on but its role no longer sees purchases. */
export const NOT_ALLOWED = "not allowed";
/** SPEC §4, §9: "reconnects 3 seconds after it closes". */
export const RECONNECT_MS = 3000;

/** `/ws` on the page's origin (ws: or wss:). */
export function liveUrl(location: { protocol: string; host: string }): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;
}

/** Opens the connection; the returned function closes it for good. */
export function connectLive(options: LiveOptions): () => void {
  const wait = options.reconnectMs ?? RECONNECT_MS;
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url));
  const setTimer = options.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>));
  let socket: WebSocket | null = null;
  let timer: unknown = null;
  let stopped = false;
  let authenticatedBefore = false;

  const open = () => {
    timer = null;
    const token = options.token();
    if (stopped || !token) return;
    options.onState?.("connecting");
    const ws = createSocket(options.url);
    socket = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: "admin_auth", token }));
    ws.onmessage = (event: MessageEvent) => {
      if (stopped) return;
      let message: { type?: string; data?: NewPurchaseNotice };
      try {
        message = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (message.type === "authenticated") {
        options.onState?.("live");
        options.onAuthenticated?.(authenticatedBefore);
        authenticatedBefore = true;
      } else if (message.type === "new_purchase" && message.data) {
        options.onPurchase(message.data);
      }
    };
    ws.onclose = (event: CloseEvent) => {
      if (socket === ws) socket = null;
      // Closed once the caller stopped it: the caller's next connection (a new token) may be
      // reporting by now, and this late 'offline' would hide that it is live.
      if (stopped) return;
      options.onState?.("offline");
      if (event.code === POLICY_VIOLATION) {
        stopped = true;
        options.onRefused?.(event.reason);
        return;
      }
      timer = setTimer(open, wait);
    };
  };

  open();
  return () => {
    stopped = true;
    if (timer !== null) clearTimer(timer);
    socket?.close(1000);
    socket = null;
  };
}
