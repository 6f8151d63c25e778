import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

// The API is reached under the site's own origin, so the site can sit behind one CDN or proxy:
// the browser calls /api, /ws and /uploads here and Next forwards them to the API.
// RIFA_API_ORIGIN is read twice: by `next build` for these rewrites (Next writes them into the
// build), and at run time by server components that call the API directly (lib/api/server.ts).
// Build and run with the same value.
const apiOrigin = (process.env.RIFA_API_ORIGIN ?? "http://127.0.0.1:8080").replace(/\/$/, "");

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Raffle images are whatever URL an admin typed; plain <img> tags keep them working without a
  // list of allowed hosts (next/image would need one).
  async rewrites() {
    return [
      { source: "/api/:path*", destination: `${apiOrigin}/api/:path*` },
      { source: "/ws", destination: `${apiOrigin}/ws` },
      { source: "/uploads/:path*", destination: `${apiOrigin}/uploads/:path*` },
    ];
  },
};

// Messages are compiled at build time (next-intl's precompile): the browser gets ready-made
// message formats instead of ICU strings, so it ships no ICU parser and parses nothing while the
// page hydrates (the parser cost ~18 ms of the raffle page's start-up on this machine).
const withNextIntl = createNextIntlPlugin({
  requestConfig: "./src/i18n/request.ts",
  experimental: { messages: { format: "json", path: "./messages", locales: "infer", precompile: true } },
});
export default withNextIntl(nextConfig);
