//! The one place the use-case tests build the application: each capability service over
//! in-memory fakes of exactly the ports it uses, all sharing one set of fakes and one
//! [`Shared`], as the composition root wires them. Tests reach a service through its accessor
//! (`t.purchasing()`, `t.review()`, …), which hands out the inbound trait the handlers use.

pub mod events;
pub mod outbound;
pub mod security;
pub mod store;
pub mod system;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use rifa_app::Shared;
use rifa_app::auth::Auth;
use rifa_app::buyer::{Buyer, BuyerService};
use rifa_app::catalog::{Catalog, CatalogService};
use rifa_app::draws::{DrawService, Draws};
use rifa_app::export::{Export, ExportService};
use rifa_app::holds::{Holds, HoldsService};
use rifa_app::links::SiteLinks;
use rifa_app::lookup::{Lookup, LookupService};
use rifa_app::mail::{Mail, MailService, MailSetup, RetryPolicy};
use rifa_app::payments::{Payments, PaymentsService};
use rifa_app::proof_checks::{ProofCheckService, ProofChecking};
use rifa_app::proof_queue::{ProofQueue, ProofQueueService};
use rifa_app::proofs::{ProofUploads, Proofs, ProofsService};
use rifa_app::purchasing::{PurchaseMode, PurchaseReceipt, Purchasing, PurchasingService};
use rifa_app::receipts::{Receipts, ReceiptsService};
use rifa_app::review::{Review, ReviewService};
use rifa_app::settings::{Settings, SettingsService};
use rifa_app::staff::Staff;
use rifa_domain::customer::{Customer, Email, Phone};
use rifa_domain::draw::prize::{PrizeDraft, PrizeSource};
use rifa_domain::payment::{PaymentMethod, PaymentMethodDraft};
use rifa_domain::payment_reference::ReferencePolicy;
use rifa_domain::pricing::{self, DiscountTable, PriceQuote};
use rifa_domain::purchase::{
    MethodChoice, PurchaseQuery, PurchaseRequest, SEARCH_COUNT_CAP, TicketChoice,
};
use rifa_domain::raffle::{Raffle, RaffleDraft, RaffleInput, RaffleStatus};
use rifa_domain::{FieldErrors, Lang};
use rifa_ports::{PaymentMethodRepository, RaffleRepository, SettingsRepository};
use rust_decimal::Decimal;

use events::RecordingEvents;
use outbound::{
    MemoryObjects, PlainComposer, RecordingMailer, ScriptedExaminer, ScriptedInspector,
    ScriptedReader, ScriptedTransports, TextPages, TextReceipts,
};
use security::{PlainHasher, PlainTokens, SequentialKeys};
use store::MemoryStore;
use system::{FixedSalts, RecordedBeacon, SequentialReferences, SettableClock};

/// The outbox over the fakes; built per retry policy by [`Harness::mail_retrying`].
type MailOverFakes = Mail<
    MemoryStore,
    ScriptedTransports,
    TextReceipts,
    PlainComposer,
    SequentialKeys,
    SettableClock,
>;

/// The admin the use-case tests decide as.
pub fn reviewer() -> rifa_domain::audit::Actor {
    rifa_domain::audit::Actor {
        admin_id: Some(rifa_domain::admin::AdminId::new(1)),
        username: "revisora".to_owned(),
        ip: Some("192.0.2.10".to_owned()),
    }
}

/// An entry for writes the tests make straight on the store.
pub fn test_entry() -> rifa_domain::audit::AuditEntry {
    rifa_domain::audit::AuditEntry {
        at: start_time(),
        actor: reviewer(),
        action: rifa_domain::audit::AuditAction::RaffleCreated,
        target: None,
        changes: Vec::new(),
    }
}

/// Auth as the CLI uses it (its account commands are not part of the handlers' trait).
pub type AuthOverFakes = Auth<MemoryStore, PlainHasher, PlainTokens, SettableClock>;
pub type StaffOverFakes = Staff<MemoryStore, PlainHasher, SettableClock>;

/// The password every generated one is in these tests: strong enough for the rules, and known.
pub const GENERATED_PASSWORD: &str = "quartz-lemon-93-saddle";

/// The services under test with a handle on each of their fakes.
pub struct Harness {
    catalog: Catalog<MemoryStore, SettableClock>,
    payments: Payments<MemoryStore, SettableClock>,
    purchasing: Purchasing<
        MemoryStore,
        RecordingEvents,
        SequentialKeys,
        SequentialReferences,
        SettableClock,
    >,
    proofs: Proofs<
        MemoryStore,
        MemoryObjects,
        ScriptedInspector,
        MemoryObjects,
        SequentialKeys,
        SettableClock,
    >,
    receipts: Receipts<MemoryStore, TextReceipts, TextPages, SequentialKeys, SettableClock>,
    review: Review<MemoryStore, SettableClock>,
    export: Export<MemoryStore>,
    holds: Holds<MemoryStore, SettableClock>,
    draws: Draws<MemoryStore, FixedSalts, RecordedBeacon, TextReceipts, SettableClock>,
    proof_queue: ProofQueue<MemoryStore, SettableClock>,
    proof_checks:
        ProofChecking<MemoryStore, MemoryObjects, ScriptedExaminer, ScriptedReader, SettableClock>,
    buyer: Buyer<MemoryStore, SequentialKeys, SettableClock>,
    lookup: Lookup<MemoryStore>,
    mail: MailOverFakes,
    auth: AuthOverFakes,
    staff: StaffOverFakes,
    settings: Settings<MemoryStore, SettableClock>,
    shared: Shared,
    renderer: Arc<TextReceipts>,
    pub store: MemoryStore,
    pub events: RecordingEvents,
    pub clock: SettableClock,
    pub references: SequentialReferences,
    pub beacon: RecordedBeacon,
    pub hasher: PlainHasher,
    pub mailer: RecordingMailer,
    /// Opens [`Harness::mailer`] for the outbox and the test e-mail.
    pub transports: ScriptedTransports,
    pub objects: MemoryObjects,
    pub inspector: ScriptedInspector,
    /// What proofs carry and say, for the proof checks.
    pub examiner: ScriptedExaminer,
    pub reader: ScriptedReader,
    access_keys: SequentialKeys,
}

/// The site the outbox links to.
pub const SITE: &str = "https://rifa.test";

fn mail_setup(retry: RetryPolicy) -> MailSetup {
    MailSetup {
        retry,
        links: SiteLinks::new(SITE),
    }
}

/// When every test starts: a Saturday noon, UTC.
pub fn start_time() -> DateTime<Utc> {
    "2025-07-26T12:00:00Z".parse().unwrap()
}

impl Harness {
    pub fn new() -> Self {
        Self::over(
            MemoryStore::default(),
            MemoryObjects::default(),
            SettableClock::at(start_time()),
            SequentialReferences::default(),
            SequentialKeys,
        )
    }

    /// A second server instance over the same storage (database and object store), clock and
    /// sequences, with caches of its own.
    pub fn another_instance(&self) -> Self {
        Self::over(
            self.store.clone(),
            self.objects.clone(),
            self.clock.clone(),
            self.references.clone(),
            self.access_keys.clone(),
        )
    }

    fn over(
        store: MemoryStore,
        objects: MemoryObjects,
        clock: SettableClock,
        references: SequentialReferences,
        access_keys: SequentialKeys,
    ) -> Self {
        let shared = Shared::default();
        store.use_clock(clock.clone());
        let (events, hasher) = (RecordingEvents::default(), PlainHasher::default());
        let mailer = RecordingMailer::default();
        let transports = ScriptedTransports::over(mailer.clone());
        let inspector = ScriptedInspector::default();
        let (examiner, reader) = (ScriptedExaminer::default(), ScriptedReader::default());
        let renderer = Arc::new(TextReceipts);
        let beacon = RecordedBeacon::default();
        Self {
            proof_queue: ProofQueue::new(store.clone(), clock.clone(), &shared),
            proof_checks: ProofChecking::new(
                store.clone(),
                objects.clone(),
                examiner.clone(),
                reader.clone(),
                clock.clone(),
            ),
            draws: Draws::new(
                store.clone(),
                FixedSalts,
                beacon.clone(),
                Arc::clone(&renderer),
                clock.clone(),
                SiteLinks::new(SITE),
                &shared,
            ),
            catalog: Catalog::new(store.clone(), clock.clone(), &shared),
            payments: Payments::new(store.clone(), clock.clone(), &shared),
            purchasing: Purchasing::new(
                store.clone(),
                events.clone(),
                access_keys.clone(),
                references.clone(),
                clock.clone(),
                &shared,
            ),
            proofs: Proofs::new(
                store.clone(),
                objects.clone(),
                inspector.clone(),
                objects.clone(),
                access_keys.clone(),
                clock.clone(),
                &shared,
            ),
            receipts: Receipts::new(
                store.clone(),
                Arc::clone(&renderer),
                TextPages,
                access_keys.clone(),
                clock.clone(),
                &shared,
            ),
            review: Review::new(store.clone(), clock.clone(), &shared),
            export: Export::new(store.clone(), &shared),
            lookup: Lookup::new(store.clone(), &shared),
            mail: Mail::new(
                store.clone(),
                transports.clone(),
                Arc::clone(&renderer),
                PlainComposer,
                access_keys.clone(),
                clock.clone(),
                mail_setup(RetryPolicy::default()),
                &shared,
            ),
            holds: Holds::new(store.clone(), clock.clone(), &shared),
            buyer: Buyer::new(store.clone(), access_keys.clone(), clock.clone(), &shared),
            auth: Auth::new(
                store.clone(),
                hasher.clone(),
                PlainTokens {
                    clock: clock.clone(),
                    sessions: Arc::default(),
                },
                clock.clone(),
                &shared,
            ),
            staff: Staff::new(
                store.clone(),
                hasher.clone(),
                clock.clone(),
                &shared,
                || GENERATED_PASSWORD.to_owned(),
            ),
            settings: Settings::new(store.clone(), clock.clone(), &shared),
            shared,
            renderer,
            store,
            events,
            clock,
            references,
            beacon,
            hasher,
            mailer,
            transports,
            objects,
            inspector,
            examiner,
            reader,
            access_keys,
        }
    }

    pub fn catalog(&self) -> &dyn CatalogService {
        &self.catalog
    }

    pub fn payments(&self) -> &dyn PaymentsService {
        &self.payments
    }

    pub fn purchasing(&self) -> &dyn PurchasingService {
        &self.purchasing
    }

    pub fn proofs(&self) -> &dyn ProofsService {
        &self.proofs
    }

    /// The `PUT` end of the API's own proof store.
    pub fn uploads(&self) -> &dyn ProofUploads {
        &self.proofs
    }

    pub fn receipts(&self) -> &dyn ReceiptsService {
        &self.receipts
    }

    pub fn review(&self) -> &dyn ReviewService {
        &self.review
    }

    pub fn export(&self) -> &dyn ExportService {
        &self.export
    }

    pub fn holds(&self) -> &dyn HoldsService {
        &self.holds
    }

    pub fn draws(&self) -> &dyn DrawService {
        &self.draws
    }

    pub fn proof_checks(&self) -> &dyn ProofCheckService {
        &self.proof_checks
    }

    pub fn proof_queue(&self) -> &dyn ProofQueueService {
        &self.proof_queue
    }

    pub fn buyer(&self) -> &dyn BuyerService {
        &self.buyer
    }

    pub fn lookup(&self) -> &dyn LookupService {
        &self.lookup
    }

    /// The outbox with the default retry policy.
    pub fn mail(&self) -> &dyn MailService {
        &self.mail
    }

    /// The outbox of this instance retrying by `retry` (the policy is the service's own, set
    /// when it is built).
    pub fn mail_retrying(&self, retry: RetryPolicy) -> Box<dyn MailService> {
        Box::new(MailOverFakes::new(
            self.store.clone(),
            self.transports.clone(),
            Arc::clone(&self.renderer),
            PlainComposer,
            self.access_keys.clone(),
            self.clock.clone(),
            mail_setup(retry),
            &self.shared,
        ))
    }

    /// Sign-in through [`rifa_app::auth::AuthService`].
    pub fn auth(&self) -> &AuthOverFakes {
        &self.auth
    }

    /// Staff through [`rifa_app::staff::StaffService`]; the account commands the CLI runs are
    /// `Staff`'s own.
    pub fn staff(&self) -> &StaffOverFakes {
        &self.staff
    }

    pub fn settings(&self) -> &dyn SettingsService {
        &self.settings
    }

    /// A raffle written straight to storage, as an admin would have made it: with its first
    /// prize (the raffle itself, drawn by a drand round), which a raffle on sale needs.
    pub async fn raffle(&self, raffle: RaffleSetup) -> Raffle {
        let draft = RaffleDraft::parse(RaffleInput {
            title: Some(raffle.title.to_owned()),
            description: Some(format!("Win a {}", raffle.title)),
            price: Some(raffle.price.parse().unwrap()),
            status: Some(raffle.status.as_str().to_owned()),
            max_tickets: Some(i64::from(raffle.max_tickets)),
            min_tickets_per_purchase: raffle.min_per_purchase.map(i64::from),
            max_tickets_per_purchase: raffle.max_per_purchase.map(i64::from),
            hold_minutes: Some(i64::from(raffle.hold_minutes)),
            ..RaffleInput::default()
        })
        .unwrap();
        self.store
            .create_raffle(
                &draft,
                &[PrizeDraft {
                    title: raffle.title.to_owned(),
                    description: String::new(),
                    image: None,
                    source: PrizeSource::Beacon { round: 1_000 },
                }],
                self.clock_now(),
                &|_, _| test_entry(),
            )
            .await
            .unwrap()
    }

    /// An active payment method without conversion, written straight to storage.
    pub async fn method(&self, name: &str) -> PaymentMethod {
        self.store
            .create_payment_method(
                &PaymentMethodDraft {
                    name: name.to_owned(),
                    kind: "zelle".to_owned(),
                    active: true,
                    details: vec![("email".to_owned(), "pagos@rifa.test".to_owned())],
                    exchange_rate_id: None,
                    reference: ReferencePolicy::default(),
                },
                &|_, _| test_entry(),
            )
            .await
            .unwrap()
    }

    /// Saves "from `min_tickets` on, `percentage`% off" as the only discount.
    pub async fn discount(&self, min_tickets: u32, percentage: u32) {
        let table = DiscountTable::new(vec![pricing::DiscountTier {
            min_tickets,
            percentage: Decimal::from(percentage),
            label: format!("{percentage}% off"),
        }])
        .unwrap();
        self.store
            .save_discounts(&table, &|_, _| test_entry())
            .await
            .unwrap();
    }

    /// What the server charges now for `count` tickets of `raffle` (the quote the site shows),
    /// worked out from storage, not through the use cases under test.
    pub async fn price_of(&self, raffle: &Raffle, count: u32) -> PriceQuote {
        let discounts = self.store.discounts().await.unwrap().unwrap_or_default();
        pricing::quote(raffle.price, count, raffle.limits, &discounts)
    }

    /// A public purchase of `numbers` by Ana, paid with `method`, at the server's price.
    pub async fn buy(
        &self,
        raffle: &Raffle,
        method: &PaymentMethod,
        numbers: &[u32],
    ) -> PurchaseReceipt {
        self.buy_as(
            raffle,
            method,
            numbers,
            buyer("Ana Ruiz", "ana@correo.com", "0414-123-4567"),
        )
        .await
    }

    /// A public purchase of `numbers` by `customer`, at the server's price.
    pub async fn buy_as(
        &self,
        raffle: &Raffle,
        method: &PaymentMethod,
        numbers: &[u32],
        customer: Customer,
    ) -> PurchaseReceipt {
        let quote = self
            .price_of(raffle, u32::try_from(numbers.len()).unwrap())
            .await;
        let mut request = request(method, numbers, &quote);
        request.customer = customer;
        self.purchasing()
            .purchase(raffle.id, Ok(request), PurchaseMode::Public, Lang::Es)
            .await
            .unwrap()
    }

    fn clock_now(&self) -> DateTime<Utc> {
        rifa_ports::Clock::now(&self.clock)
    }
}

/// A raffle's terms, with defaults for what a test does not care about.
#[derive(Debug, Clone, Copy)]
pub struct RaffleSetup {
    pub title: &'static str,
    pub price: &'static str,
    pub status: RaffleStatus,
    pub max_tickets: u32,
    pub min_per_purchase: Option<u32>,
    pub max_per_purchase: Option<u32>,
    /// Minutes a purchase without a proof holds its numbers.
    pub hold_minutes: u32,
}

impl Default for RaffleSetup {
    /// An RX-7 on sale: 100 numbers at 13.00, 1 to 10 per purchase, held 30 minutes.
    fn default() -> Self {
        Self {
            title: "RX-7",
            price: "13.00",
            status: RaffleStatus::Available,
            max_tickets: 100,
            min_per_purchase: Some(1),
            max_per_purchase: Some(10),
            hold_minutes: 30,
        }
    }
}

/// The buyer Ana's purchase of `numbers`, claiming the total and discount of `quote`, as the
/// edge hands it over (well-formed).
pub fn form(
    method: &PaymentMethod,
    numbers: &[u32],
    quote: &PriceQuote,
) -> Result<PurchaseRequest, FieldErrors> {
    Ok(request(method, numbers, quote))
}

/// The request inside [`form`], for tests that change a field first.
pub fn request(method: &PaymentMethod, numbers: &[u32], quote: &PriceQuote) -> PurchaseRequest {
    PurchaseRequest {
        customer: buyer("Ana Ruiz", "ana@correo.com", "0414-123-4567"),
        payment_method: MethodChoice::Id(method.id),
        tickets: TicketChoice::Numbers(numbers.iter().map(|n| i64::from(*n)).collect()),
        total_amount: quote.total,
        discount_applied: quote.discount,
        payment_reference: None,
    }
}

/// The fields an `Invalid` answer names, in order.
pub fn fields(errors: &FieldErrors) -> Vec<&str> {
    errors.iter().map(|(field, _)| field.as_ref()).collect()
}

/// A buyer whose ID document follows from the e-mail, so two addresses are two people.
/// Every purchase, newest first, `page_size` to a page.
pub fn every_purchase(page_size: u32) -> PurchaseQuery {
    PurchaseQuery {
        raffle_id: None,
        name_contains: None,
        status: None,
        ticket_numbers: Vec::new(),
        created: None,
        max_id: None,
        page: 1,
        page_size,
        anchor: None,
        count_cap: SEARCH_COUNT_CAP,
    }
}

pub fn buyer(name: &str, email: &str, phone: &str) -> Customer {
    Customer {
        name: name.to_owned(),
        id_document: format!("ID-{}", email.split('@').next().unwrap_or(email)),
        email: Email::parse(email).unwrap(),
        phone: Phone::parse(phone).unwrap(),
        country: "venezuela".to_owned(),
    }
}
