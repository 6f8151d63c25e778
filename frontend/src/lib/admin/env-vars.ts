/** The API's SMTP environment variables (crates/api/src/config.rs) for the e-mail tab's copy list. */
export interface MailEnvInput {
  emailHost: string;
  emailPort: number | string;
  emailUser: string;
  fromEmail: string;
  /** True when a password is stored or typed: the line is written as a placeholder, never the secret. */
  hasPassword: boolean;
}

/** How the API secures the connection by default: TLS from the start on 465, else STARTTLS. */
export function smtpSecurityFor(port: number | string): "tls" | "starttls" {
  return Number(port) === 465 ? "tls" : "starttls";
}

export function mailEnvLines(s: MailEnvInput): string[] {
  const port = String(s.emailPort || 587).trim();
  return [
    `RIFA_SMTP_HOST=${s.emailHost.trim()}`,
    `RIFA_SMTP_PORT=${port}`,
    `RIFA_SMTP_USER=${s.emailUser.trim()}`,
    `RIFA_SMTP_PASSWORD=${s.hasPassword ? "<app password>" : ""}`,
    `RIFA_SMTP_FROM=${s.fromEmail.trim()}`,
    `RIFA_SMTP_SECURITY=${smtpSecurityFor(port)}`,
  ];
}
