/**
 * The admin panel's live connection (SPEC §4 "Live connection", §7): `/ws` on the site's own
 * origin, `admin_auth` with the token on open, `new_purchase` notices, a reconnect 3 s after a
 * close. A refusal of the token (close code 1008) stops it: retrying a bad token forever helps
 * nobody, the caller signs the admin out instead. Connections that keep failing before they
 * authenticate back off (3 s, 6 s, 12 s … at most 60 s).
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
  /** The server refused the token (close 1008): sign in again. */
  onRefused?: (reason: string) => void;
  onState?: (state: LiveState) => void;
  reconnectMs?: number;
  maxReconnectMs?: number;
  /** For tests. */
  createSocket?: (url: string) => WebSocket;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export const POLICY_VIOLATION = 1008;

/** The delay before the next attempt after `failures` closes in a row without authenticating. */
export function reconnectDelay(failures: number, base = 3000, max = 60_000): number {
  if (failures <= 1) return base;
  return Math.min(max, base * 2 ** (failures - 1));
}

/** `/ws` on the page's origin (ws: or wss:). */
export function liveUrl(location: { protocol: string; host: string }): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;
}

/** Opens the connection; the returned function closes it for good. */
export function connectLive(options: LiveOptions): () => void {
  const base = options.reconnectMs ?? 3000;
  const max = options.maxReconnectMs ?? 60_000;
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url));
  const setTimer = options.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>));
  let socket: WebSocket | null = null;
  let timer: unknown = null;
  let stopped = false;
  let failures = 0;

  const open = () => {
    timer = null;
    const token = options.token();
    if (stopped || !token) return;
    options.onState?.("connecting");
    let authenticated = false;
    const ws = createSocket(options.url);
    socket = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: "admin_auth", token }));
    ws.onmessage = (event: MessageEvent) => {
      let message: { type?: string; data?: NewPurchaseNotice };
      try {
        message = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (message.type === "authenticated") {
        authenticated = true;
        failures = 0;
        options.onState?.("live");
      } else if (message.type === "new_purchase" && message.data) {
        options.onPurchase(message.data);
      }
    };
    ws.onclose = (event: CloseEvent) => {
      if (socket === ws) socket = null;
      options.onState?.("offline");
      if (stopped) return;
      if (event.code === POLICY_VIOLATION) {
        stopped = true;
        options.onRefused?.(event.reason);
        return;
      }
      failures = authenticated ? 1 : failures + 1;
      timer = setTimer(open, reconnectDelay(failures, base, max));
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
