import type es from "../../messages/es.json";
import type { Locale } from "@/lib/i18n/config";

// Message keys are typed from the Spanish file: a missing or misspelt key fails the typecheck.
declare module "next-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: typeof es;
  }
}
