import { LegalDocument, legalMetadata } from "@/components/legal/legal-document";

export const generateMetadata = () => legalMetadata("terminos-y-condiciones");

export default function Page() {
  return <LegalDocument slug="terminos-y-condiciones" />;
}
