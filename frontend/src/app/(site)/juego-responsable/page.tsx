import { LegalDocument, legalMetadata } from "@/components/legal/legal-document";

export const generateMetadata = () => legalMetadata("juego-responsable");

export default function Page() {
  return <LegalDocument slug="juego-responsable" />;
}
