//! The domain's refusals as catalogue messages: the domain names what went wrong (a code and
//! its values), the catalogue words it.

use rifa_domain::FieldError;
use rifa_domain::lookup::LookupMiss;
use rifa_domain::proof::ProofError;
use rifa_domain::purchase::NotPending;

use crate::Message;

impl From<&FieldError> for Message {
    fn from(error: &FieldError) -> Self {
        use FieldError as E;
        let message = Self::new(format!("field-{}", error.code()));
        match error {
            E::TooShort { min } => message.text("min", min.to_string()),
            E::TooLong { max } => message.text("max", max.to_string()),
            E::OutOfRange { min, max } => message.text("min", min).text("max", max),
            E::TooManyDecimals { max } => message.text("max", max.to_string()),
            E::UnknownOption { allowed } => message.text("allowed", allowed.join(", ")),
            E::TicketsBelowMinimum { min } => message.count("min", *min),
            E::TicketsAboveMaximum { max } => message.count("max", *max),
            E::PerPersonLimit { max, used } => message.count("max", *max).count("used", *used),
            E::TicketOutOfRange { number, max } => message
                .text("number", number.to_string())
                .text("max", max.to_string()),
            E::TicketRepeated { number } => message.text("number", number.to_string()),
            E::WeakPassword {
                warning,
                suggestions,
            } => {
                let reasons: Vec<&str> = warning
                    .iter()
                    .chain(suggestions)
                    .map(String::as_str)
                    .collect();
                message
                    .count(
                        "reason_count",
                        u64::try_from(reasons.len()).unwrap_or(u64::MAX),
                    )
                    .text("reasons", reasons.join(" "))
            }
            E::Required
            | E::InvalidCharacters
            | E::NameTooShort
            | E::NameNotPlain
            | E::NumbersAndRandomCount
            | E::InvalidEmail
            | E::PhoneTooShort
            | E::PaymentMethodRequired
            | E::PaymentMethodUnavailable
            | E::TermsNotAccepted
            | E::NotANumber
            | E::InvalidDate
            | E::InvalidUrl
            | E::InvalidHsl
            | E::TicketsEmpty
            | E::MinAboveMax
            | E::NotesRequiredToReject
            | E::LookupValueRequired
            | E::SameCurrency => message,
        }
    }
}

impl From<&ProofError> for Message {
    fn from(error: &ProofError) -> Self {
        let message = Self::new(error.code());
        match *error {
            ProofError::NotAsDeclared { declared, actual } => message
                .text("actual", actual.label())
                .text("declared", declared.label())
                .text("extension", actual.extension()),
            ProofError::Unreadable { kind } => message.text("kind", kind.label()),
            ProofError::TooManyPixels { width, height } => message
                .text("width", width.to_string())
                .text("height", height.to_string()),
            ProofError::Missing | ProofError::TooLarge { .. } | ProofError::WrongType => message,
        }
    }
}

impl From<&LookupMiss> for Message {
    fn from(miss: &LookupMiss) -> Self {
        Self::new(miss.code())
    }
}

impl From<&NotPending> for Message {
    fn from(error: &NotPending) -> Self {
        Self::new("purchase_not_pending-decision").text("status", error.current.as_str())
    }
}
