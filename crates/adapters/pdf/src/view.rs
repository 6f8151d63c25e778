//! What a receipt says, worded and formatted once for both renderers (PDF and HTML).
//!
//! Everything here is plain text in the buyer's language; the renderers only lay it out (and the
//! PDF one shapes right-to-left text and picks a font per character).

use rifa_domain::Lang;
use rifa_domain::display::{format_decimal, format_money, group_digits};
use rifa_domain::exchange::Currency;
use rifa_domain::money::{Money, Rate};
use rifa_domain::purchase::{Purchase, PurchaseStatus};
use rifa_domain::ticket::display_number;
use rifa_ports::outbound::ReceiptContext;

/// One labelled value (`Referencia: ABC123`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Field {
    pub label: &'static str,
    /// Trimmed; `—` when the purchase has nothing for it.
    pub value: String,
}

/// The converted amount of a purchase paid in another currency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Conversion {
    /// What the amount is, by the purchase's status: to pay, paid, or only what it came to.
    pub label: &'static str,
    /// `Bs 949,03`
    pub amount: String,
    /// `Tasa: 1 USD = 36,5012 VES`
    pub rate_line: String,
}

/// A receipt, ready to be laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ReceiptView {
    pub lang: Lang,
    pub labels: &'static Labels,
    pub company: String,
    pub raffle_title: String,
    pub reference: String,
    pub buyer: Vec<Field>,
    /// Reference, status, date and payment method (and the discount when there was one).
    pub payment: Vec<Field>,
    /// `US$ 26,00`
    pub total: String,
    pub conversion: Option<Conversion>,
    /// `Boletos (5.000)`
    pub tickets_heading: String,
    /// Sorted, zero-padded the way the domain pads them.
    pub numbers: Vec<String>,
    /// A warning for test and rejected purchases, the e-mail promise for pending ones.
    pub notice: Option<Notice>,
    /// `Generado el 05/01/2026 14:03 UTC`
    pub generated: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NoticeKind {
    /// Informative (pending purchases).
    Info,
    /// A test purchase (nothing was sold) or a rejected one (nothing is owed).
    Warning,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Notice {
    pub kind: NoticeKind,
    pub text: &'static str,
}

/// The fixed words of a receipt in one language.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Labels {
    pub document_title: &'static str,
    pub raffle: &'static str,
    pub buyer: &'static str,
    pub name: &'static str,
    pub id_document: &'static str,
    pub email: &'static str,
    pub phone: &'static str,
    pub country: &'static str,
    pub payment: &'static str,
    pub reference: &'static str,
    pub status: &'static str,
    pub date: &'static str,
    pub payment_method: &'static str,
    pub discount: &'static str,
    pub total: &'static str,
    /// The converted amount of a pending purchase, still to be paid.
    pub amount_to_pay: &'static str,
    /// The converted amount of an approved purchase.
    pub amount_paid: &'static str,
    /// The converted amount of a rejected or test purchase: nothing is owed.
    pub purchase_amount: &'static str,
    pub rate: &'static str,
    pub tickets: &'static str,
    pub page: &'static str,
    pub generated: &'static str,
    pub print: &'static str,
    pub pending_notice: &'static str,
    pub test_notice: &'static str,
    pub rejected_notice: &'static str,
}

static ES: Labels = Labels {
    document_title: "Recibo de compra",
    raffle: "Sorteo",
    buyer: "Comprador",
    name: "Nombre",
    id_document: "Cédula o pasaporte",
    email: "Correo electrónico",
    phone: "Teléfono",
    country: "País",
    payment: "Pago",
    reference: "Referencia",
    status: "Estado",
    date: "Fecha",
    payment_method: "Método de pago",
    discount: "Descuento",
    total: "Total",
    amount_to_pay: "Monto a pagar",
    amount_paid: "Monto pagado",
    purchase_amount: "Monto de la compra",
    rate: "Tasa",
    tickets: "Boletos",
    page: "Página",
    generated: "Generado el",
    print: "Imprimir",
    pending_notice: "Recibirás un correo de confirmación cuando tu pago sea aprobado. \
                     Conserva este recibo y tu referencia.",
    test_notice: "Compra de prueba: no es una compra real y no reserva ningún número.",
    rejected_notice: "Compra rechazada: no hay ningún monto que pagar y sus números quedaron \
                      liberados.",
};

static EN: Labels = Labels {
    document_title: "Purchase receipt",
    raffle: "Raffle",
    buyer: "Buyer",
    name: "Name",
    id_document: "ID or passport",
    email: "E-mail",
    phone: "Phone",
    country: "Country",
    payment: "Payment",
    reference: "Reference",
    status: "Status",
    date: "Date",
    payment_method: "Payment method",
    discount: "Discount",
    total: "Total",
    amount_to_pay: "Amount to pay",
    amount_paid: "Amount paid",
    purchase_amount: "Purchase amount",
    rate: "Rate",
    tickets: "Tickets",
    page: "Page",
    generated: "Generated on",
    print: "Print",
    pending_notice: "You will receive a confirmation e-mail when your payment is approved. \
                     Keep this receipt and your reference.",
    test_notice: "Test purchase: not a real purchase; it holds no numbers.",
    rejected_notice: "Purchase rejected: nothing is owed for it, and its numbers were released.",
};

impl Labels {
    pub(crate) fn of(lang: Lang) -> &'static Self {
        match lang {
            Lang::Es => &ES,
            Lang::En => &EN,
        }
    }
}

impl ReceiptView {
    pub(crate) fn new(purchase: &Purchase, context: &ReceiptContext) -> Self {
        let lang = context.lang;
        let labels = Labels::of(lang);
        let field = |label, value: &str| Field {
            label,
            value: match value.trim() {
                "" => "—".to_owned(),
                value => value.to_owned(),
            },
        };
        let buyer = vec![
            field(labels.name, &purchase.customer_name),
            field(labels.id_document, &purchase.customer_id_document),
            field(labels.email, &purchase.customer_email),
            field(labels.phone, &purchase.customer_phone),
            field(
                labels.country,
                country_label(&purchase.customer_country, lang),
            ),
        ];
        let mut payment = vec![
            field(labels.reference, &purchase.reference),
            field(labels.status, status_label(purchase.status, lang)),
            field(labels.date, &format_instant(purchase.created_at, lang)),
            field(labels.payment_method, &purchase.payment_method),
        ];
        if purchase.discount_applied > Money::ZERO {
            payment.push(field(
                labels.discount,
                &format_money(Currency::Usd, purchase.discount_applied.as_decimal(), lang),
            ));
        }
        let conversion = purchase.conversion.map(|(currency, rate)| Conversion {
            label: match purchase.status {
                PurchaseStatus::Pending => labels.amount_to_pay,
                PurchaseStatus::Approved => labels.amount_paid,
                PurchaseStatus::Rejected | PurchaseStatus::Test => labels.purchase_amount,
            },
            amount: format_money(currency, rate.convert(purchase.total_amount), lang),
            rate_line: rate_line(labels, currency, rate, lang),
        });
        let mut numbers = purchase.ticket_numbers.clone();
        numbers.sort_unstable();
        let count = u64::try_from(numbers.len()).unwrap_or(u64::MAX);
        let notice = match purchase.status {
            PurchaseStatus::Pending => Some(Notice {
                kind: NoticeKind::Info,
                text: labels.pending_notice,
            }),
            PurchaseStatus::Test => Some(Notice {
                kind: NoticeKind::Warning,
                text: labels.test_notice,
            }),
            PurchaseStatus::Rejected => Some(Notice {
                kind: NoticeKind::Warning,
                text: labels.rejected_notice,
            }),
            PurchaseStatus::Approved => None,
        };
        Self {
            lang,
            labels,
            company: context.company_name.trim().to_owned(),
            raffle_title: purchase.raffle_title.trim().to_owned(),
            reference: purchase.reference.trim().to_owned(),
            buyer,
            payment,
            total: format_money(Currency::Usd, purchase.total_amount.as_decimal(), lang),
            conversion,
            tickets_heading: format!(
                "{} ({})",
                labels.tickets,
                group_digits(&count.to_string(), lang)
            ),
            numbers: numbers
                .into_iter()
                .map(|n| display_number(n, context.max_tickets))
                .collect(),
            notice,
            generated: format!(
                "{} {}",
                labels.generated,
                format_instant(context.generated_at, lang)
            ),
        }
    }
}

/// What the buyer reads for a purchase status: the receipt dialog's 'Procesando pago' and
/// 'Modo Prueba', and the verdicts.
fn status_label(status: PurchaseStatus, lang: Lang) -> &'static str {
    match (status, lang) {
        (PurchaseStatus::Pending, Lang::Es) => "Procesando pago",
        (PurchaseStatus::Approved, Lang::Es) => "Aprobada",
        (PurchaseStatus::Rejected, Lang::Es) => "Rechazada",
        (PurchaseStatus::Test, Lang::Es) => "Modo Prueba",
        (PurchaseStatus::Pending, Lang::En) => "Processing payment",
        (PurchaseStatus::Approved, Lang::En) => "Approved",
        (PurchaseStatus::Rejected, Lang::En) => "Rejected",
        (PurchaseStatus::Test, Lang::En) => "Test mode",
    }
}

/// The purchase form's country options by name; anything else is shown as stored.
fn country_label(slug: &str, lang: Lang) -> &str {
    match (slug.trim(), lang) {
        ("venezuela", _) => "Venezuela",
        ("colombia", _) => "Colombia",
        ("mexico", Lang::Es) => "México",
        ("mexico", Lang::En) => "Mexico",
        ("argentina", _) => "Argentina",
        ("peru", Lang::Es) => "Perú",
        ("peru", Lang::En) => "Peru",
        ("ecuador", _) => "Ecuador",
        ("estados-unidos", Lang::Es) => "Estados Unidos",
        ("estados-unidos", Lang::En) => "United States",
        ("other", Lang::Es) => "Otro",
        ("other", Lang::En) => "Other",
        (other, _) => other,
    }
}

/// `05/01/2026 14:03 UTC` in Spanish, `Jan 5, 2026 14:03 UTC` in English. Instants are stored
/// in UTC and the buyer's zone is unknown, so the zone is named rather than guessed.
fn format_instant(instant: chrono::DateTime<chrono::Utc>, lang: Lang) -> String {
    let pattern = match lang {
        Lang::Es => "%d/%m/%Y %H:%M UTC",
        Lang::En => "%b %-d, %Y %H:%M UTC",
    };
    instant.format(pattern).to_string()
}

/// `Tasa: 1 USD = 36,5012 VES`: four decimals, as the payment form shows it.
fn rate_line(labels: &Labels, currency: Currency, rate: Rate, lang: Lang) -> String {
    format!(
        "{}: 1 USD = {} {}",
        labels.rate,
        format_decimal(rate.value(), 4, lang),
        currency.code()
    )
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use rust_decimal::Decimal;

    use super::*;

    fn dec(raw: &str) -> Decimal {
        Decimal::from_str(raw).unwrap_or_else(|e| panic!("{raw}: {e}"))
    }

    #[test]
    fn rates_show_four_decimals() {
        let rate = Rate::new(dec("36.5")).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(
            rate_line(&ES, Currency::Ves, rate, Lang::Es),
            "Tasa: 1 USD = 36,5000 VES"
        );
        let rate = Rate::new(dec("4012.123456")).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(
            rate_line(&EN, Currency::Cop, rate, Lang::En),
            "Rate: 1 USD = 4,012.1235 COP"
        );
    }

    #[test]
    fn known_countries_are_named_and_others_shown_as_stored() {
        assert_eq!(country_label("estados-unidos", Lang::Es), "Estados Unidos");
        assert_eq!(country_label("estados-unidos", Lang::En), "United States");
        assert_eq!(country_label("peru", Lang::Es), "Perú");
        assert_eq!(country_label("atlantis", Lang::En), "atlantis");
    }
}
