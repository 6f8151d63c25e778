//! What a receipt says, worded and formatted once for both renderers (PDF and HTML).
//!
//! Everything here is plain text in the buyer's language; the renderers only lay it out (and the
//! PDF one shapes right-to-left text and picks a font per character).

use std::sync::LazyLock;

use rifa_domain::Lang;
use rifa_domain::exchange::Currency;
use rifa_domain::money::{Money, Rate};
use rifa_domain::purchase::{Purchase, PurchaseStatus};
use rifa_domain::ticket::display_number;
use rifa_ports::outbound::ReceiptContext;
use rifa_text::format::{format_decimal, format_instant, format_money, group_digits};
use rifa_text::{Message, text};

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

/// The fixed words of a receipt in one language, read once from the catalogue.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Labels {
    pub document_title: String,
    pub raffle: String,
    pub buyer: String,
    pub name: String,
    pub id_document: String,
    pub email: String,
    pub phone: String,
    pub country: String,
    pub payment: String,
    pub reference: String,
    pub status: String,
    pub date: String,
    pub payment_method: String,
    pub discount: String,
    pub total: String,
    /// The converted amount of a pending purchase, still to be paid.
    pub amount_to_pay: String,
    /// The converted amount of an approved purchase.
    pub amount_paid: String,
    /// The converted amount of a rejected or test purchase: nothing is owed.
    pub purchase_amount: String,
    pub rate: String,
    pub tickets: String,
    pub page: String,
    pub generated: String,
    pub print: String,
    pub pending_notice: String,
    pub test_notice: String,
    pub rejected_notice: String,
    pub expired_notice: String,
}

static LABELS: LazyLock<[(Lang, Labels); 2]> =
    LazyLock::new(|| Lang::ALL.map(|lang| (lang, Labels::load(lang))));

impl Labels {
    pub(crate) fn of(lang: Lang) -> &'static Self {
        let [(_, default), _] = &*LABELS;
        LABELS
            .iter()
            .find(|(of, _)| *of == lang)
            .map_or(default, |(_, labels)| labels)
    }

    fn load(lang: Lang) -> Self {
        let label = |key| text(key, lang);
        Self {
            document_title: label("receipt-document_title"),
            raffle: label("receipt-raffle"),
            buyer: label("receipt-buyer"),
            name: label("receipt-name"),
            id_document: label("receipt-id_document"),
            email: label("receipt-email"),
            phone: label("receipt-phone"),
            country: label("receipt-country"),
            payment: label("receipt-payment"),
            reference: label("receipt-reference"),
            status: label("receipt-status"),
            date: label("receipt-date"),
            payment_method: label("receipt-payment_method"),
            discount: label("receipt-discount"),
            total: label("receipt-total"),
            amount_to_pay: label("receipt-amount_to_pay"),
            amount_paid: label("receipt-amount_paid"),
            purchase_amount: label("receipt-purchase_amount"),
            rate: label("receipt-rate"),
            tickets: label("receipt-tickets"),
            page: label("receipt-page"),
            generated: label("receipt-generated"),
            print: label("receipt-print"),
            pending_notice: label("receipt-pending_notice"),
            test_notice: label("receipt-test_notice"),
            rejected_notice: label("receipt-rejected_notice"),
            expired_notice: label("receipt-expired_notice"),
        }
    }
}

impl ReceiptView {
    pub(crate) fn new(purchase: &Purchase, context: &ReceiptContext) -> Self {
        let lang = context.lang;
        let labels = Labels::of(lang);
        let field = |label: &'static String, value: &str| Field {
            label: label.as_str(),
            value: match value.trim() {
                "" => "—".to_owned(),
                value => value.to_owned(),
            },
        };
        let buyer = vec![
            field(&labels.name, &purchase.customer_name),
            field(&labels.id_document, &purchase.customer_id_document),
            field(&labels.email, &purchase.customer_email),
            field(&labels.phone, &purchase.customer_phone),
            field(
                &labels.country,
                &country_label(&purchase.customer_country, lang),
            ),
        ];
        let mut payment = vec![
            field(&labels.reference, &purchase.reference),
            field(&labels.status, &status_label(purchase.status, lang)),
            field(&labels.date, &format_instant(purchase.created_at, lang)),
            field(&labels.payment_method, &purchase.payment_method),
        ];
        if purchase.discount_applied > Money::ZERO {
            payment.push(field(
                &labels.discount,
                &format_money(Currency::Usd, purchase.discount_applied.as_decimal(), lang),
            ));
        }
        let conversion = purchase.conversion.map(|(currency, rate)| Conversion {
            label: match purchase.status {
                PurchaseStatus::Pending => labels.amount_to_pay.as_str(),
                PurchaseStatus::Approved => labels.amount_paid.as_str(),
                PurchaseStatus::Rejected | PurchaseStatus::Test | PurchaseStatus::Expired => {
                    labels.purchase_amount.as_str()
                }
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
                text: labels.pending_notice.as_str(),
            }),
            PurchaseStatus::Test => Some(Notice {
                kind: NoticeKind::Warning,
                text: labels.test_notice.as_str(),
            }),
            PurchaseStatus::Rejected => Some(Notice {
                kind: NoticeKind::Warning,
                text: labels.rejected_notice.as_str(),
            }),
            PurchaseStatus::Expired => Some(Notice {
                kind: NoticeKind::Warning,
                text: labels.expired_notice.as_str(),
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
fn status_label(status: PurchaseStatus, lang: Lang) -> String {
    let key = match status {
        PurchaseStatus::Pending => "receipt-status-pending",
        PurchaseStatus::Approved => "receipt-status-approved",
        PurchaseStatus::Rejected => "receipt-status-rejected",
        PurchaseStatus::Test => "receipt-status-test",
        PurchaseStatus::Expired => "receipt-status-expired",
    };
    text(key, lang)
}

/// The purchase form's country options by name; anything else is shown as stored.
pub(crate) fn country_label(slug: &str, lang: Lang) -> String {
    let slug = slug.trim();
    let key = format!("country-{slug}");
    if rifa_text::has(&key) {
        Message::new(key).render(lang)
    } else {
        slug.to_owned()
    }
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
            rate_line(Labels::of(Lang::Es), Currency::Ves, rate, Lang::Es),
            "Tasa: 1 USD = 36,5000 VES"
        );
        let rate = Rate::new(dec("4012.123456")).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(
            rate_line(Labels::of(Lang::En), Currency::Cop, rate, Lang::En),
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
