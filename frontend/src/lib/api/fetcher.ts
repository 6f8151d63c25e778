import type { ApiErrorBody } from "./types";

/** Local-storage keys of the admin session (SPEC §9). */
export const AUTH_TOKEN_KEY = "auth_token";
export const AUTH_USER_KEY = "auth_user";

/**
 * A non-ok answer. Its message is the spec's "status: body" (SPEC §8): the HTTP status, a colon
 * and a space, then the body text, or the status text when the body is empty. `body` is the
 * API's parsed error (`{code, message, fields, …}`) when the body was one.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly text: string;
  readonly body: ApiErrorBody | null;

  constructor(status: number, statusText: string, text: string) {
    super(`${status}: ${text || statusText}`);
    this.name = "ApiError";
    this.status = status;
    this.text = text;
    this.body = parseErrorBody(text);
  }

  /** The server's message for people, when it sent one. */
  get serverMessage(): string | null {
    return this.body?.message ?? null;
  }

  get code(): string | null {
    return this.body?.code ?? null;
  }
}

function parseErrorBody(text: string): ApiErrorBody | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && typeof (value as ApiErrorBody).code === "string") {
      return value as ApiErrorBody;
    }
  } catch {
    // Not JSON: a proxy's page or plain text; the message keeps it as it is.
  }
  return null;
}

/** The server's message of an error, or the given fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return fallback;
}

/** The stored admin token, when this browser has one (never on the server). */
export function storedToken(): string | null {
  if (typeof window === "undefined") return null;
  try {
    return window.localStorage.getItem(AUTH_TOKEN_KEY);
  } catch {
    return null;
  }
}

/** The language of the page, sent as Accept-Language so error messages come back in it. */
function uiLanguage(): string | null {
  if (typeof document === "undefined") return null;
  return document.documentElement.lang || null;
}

export interface RequestOptions {
  method?: string;
  /** JSON payload, FormData for multipart, or a file (Blob) sent as the body itself. JSON headers are sent only when given. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Lets the request finish even if the page is closed meanwhile (a sign-out). */
  keepalive?: boolean;
}

/**
 * The one request function of the site (SPEC §7): bearer token when stored, credentials
 * included, a JSON content type and body only when a payload is given, errors as ApiError.
 */
export async function apiRequest(url: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  const token = storedToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const language = uiLanguage();
  if (language && !headers["Accept-Language"]) headers["Accept-Language"] = language;

  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body; // the browser sets the multipart boundary
  } else if (options.body instanceof Blob) {
    body = options.body; // a file as the request's body, sent with its own type
    if (options.body.type) headers["Content-Type"] = options.body.type;
  } else if (options.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.body);
  }

  const response = await fetch(url, {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
    credentials: "include",
    signal: options.signal,
    ...(options.keepalive ? { keepalive: true } : {}),
  });
  if (!response.ok) {
    const text = await response.text().catch(() => "");
    throw new ApiError(response.status, response.statusText, text);
  }
  return response;
}

/** A request whose answer is JSON (or nothing, for 204). */
export async function apiJson<T>(url: string, options?: RequestOptions): Promise<T> {
  const response = await apiRequest(url, options);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** SWR keys are arrays of URL parts joined with a slash: ["/api/raffles", 3] → /api/raffles/3. */
export type SwrKey = string | readonly (string | number)[];

export function keyToUrl(key: SwrKey): string {
  return typeof key === "string" ? key : key.map(String).join("/");
}

/** The default SWR fetcher: a 401 fails. */
export function swrFetcher<T>(key: SwrKey): Promise<T> {
  return apiJson<T>(keyToUrl(key));
}

/** A read that answers null on 401 instead of failing (SPEC §7 "return null on 401"). */
export async function swrFetcherNullOn401<T>(key: SwrKey): Promise<T | null> {
  try {
    return await apiJson<T>(keyToUrl(key));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** SWR settings of the spec: no retries, no refetch on focus or reconnect, never stale. */
export const swrConfig = {
  fetcher: swrFetcher,
  shouldRetryOnError: false,
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  revalidateIfStale: false,
  refreshInterval: 0,
} as const;
