import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

// The API is reached under the site's own origin, so the site can sit behind one CDN or proxy:
// the browser calls /api, /ws and /uploads here and server.mjs forwards them to the API named by
// RIFA_API_ORIGIN when it starts (not in the build: one build serves any API address).

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Raffle images are whatever URL an admin typed; plain <img> tags keep them working without a
  // list of allowed hosts (next/image would need one).
};

// Messages are compiled at build time (next-intl's precompile): the browser gets ready-made
// message formats instead of ICU strings, so it ships no ICU parser and parses nothing while the
// page hydrates (the parser cost ~18 ms of the raffle page's start-up on this machine).
const withNextIntl = createNextIntlPlugin({
  requestConfig: "./src/i18n/request.ts",
  experimental: { messages: { format: "json", path: "./messages", locales: "infer", precompile: true } },
});
export default withNextIntl(nextConfig);
