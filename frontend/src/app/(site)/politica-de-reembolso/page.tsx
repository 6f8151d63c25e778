import { LegalDocument, legalMetadata } from "@/components/legal/legal-document";

export const generateMetadata = () => legalMetadata("politica-de-reembolso");

export default function Page() {
  return <LegalDocument slug="politica-de-reembolso" />;
}
