import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      // Raffle images come from any URL an admin enters; <img> is deliberate (see next.config.ts).
      "@next/next/no-img-element": "off",
    },
  },
  { ignores: [".next/**", "node_modules/**", "artefacts/**", "next-env.d.ts", ".lighthouse/**"] },
];
export default config;
