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
  {
    // Every number, amount and date is written by src/lib/format.ts, so one change of format
    // reaches every screen (issue 13): no Intl, toLocale* or locale name anywhere else.
    files: ["src/**/*.{ts,tsx}"],
    ignores: ["src/lib/format.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: "MemberExpression[object.name='Intl']", message: "Format through src/lib/format.ts." },
        { selector: "CallExpression[callee.property.name=/^toLocale/]", message: "Format through src/lib/format.ts." },
        { selector: "Literal[value=/^[a-z]{2}-[A-Z]{2}$/]", message: "Locale names live in src/lib/format.ts." },
      ],
    },
  },
  { ignores: [".next/**", "node_modules/**", "artefacts/**", "next-env.d.ts", ".lighthouse/**"] },
];
export default config;
