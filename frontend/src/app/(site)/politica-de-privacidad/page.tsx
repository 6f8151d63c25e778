import { LegalDocument, legalMetadata } from "@/components/legal/legal-document";

export const generateMetadata = () => legalMetadata("politica-de-privacidad");

export default function Page() {
  return <LegalDocument slug="politica-de-privacidad" />;
}
