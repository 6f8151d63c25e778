//! The traits Rifa's core needs from the outside world.
//!
//! Every trait is `Send + Sync + 'static` so services can be shared across the server's workers.
//! Methods return `impl Future + Send` (adapters may write plain `async fn`). Each method's
//! `# Errors` section is a contract adapters must honour: known cases get their own variant,
//! anything else is `Unknown` / `anyhow::Error` with context.

pub mod audit;
pub mod buyer_access;
pub mod draws;
pub mod events;
pub mod mail_outbox;
pub mod outbound;
pub mod proof_checks;
pub mod repositories;
pub mod security;
pub mod system;
pub mod transfers;

pub use audit::{AuditQuery, AuditTrail};
pub use buyer_access::{AttachOutcome, ProofProblem, PurchaseAccess, PurchaseProofs};
pub use draws::*;
pub use events::{DomainEvent, EventBus};
pub use mail_outbox::{
    MailId, MailJob, MailKind, MailOutbox, MailRecord, MailStatus, MailSubject, RecipientCaps,
    WithheldReason, recipient_key,
};
pub use proof_checks::{
    ProofCheckJob, ProofCheckState, ProofChecks, ProofEvidence, ProofExaminer, ProofFindings,
    ProofSubject, ProofText, QueueLight, QueueQuery, QueuedProof, TextReader,
};
pub use repositories::*;
pub use security::{
    AccessKeys, AdminClaims, IssuedToken, KnownDevices, PasswordHasher, TokenError, TokenIssuer,
};
pub use system::{Clock, ReferenceGenerator, SaltGenerator};
pub use transfers::{DirectTransfers, DownloadRefusal, OutgoingFile, UploadRefusal};
