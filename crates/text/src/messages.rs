//! The domain's refusals as catalogue messages: the domain names what went wrong (a code and
//! its values), the catalogue words it.

use rifa_domain::FieldError;
use rifa_domain::draw::ledger::to_hex;
use rifa_domain::draw::rule::DrawStep;
use rifa_domain::draw::verify::Finding;
use rifa_domain::lookup::LookupMiss;
use rifa_domain::proof::ProofError;
use rifa_domain::purchase::NotPending;
use rifa_domain::ticket::{TicketNumber, display_number};

use crate::Message;

impl From<&FieldError> for Message {
    fn from(error: &FieldError) -> Self {
        use FieldError as E;
        let message = Self::new(format!("field-{}", error.code()));
        match error {
            E::TooShort { min } => message.text("min", min.to_string()),
            E::TooLong { max } => message.text("max", max.to_string()),
            E::OutOfRange { min, max } => message.text("min", min).text("max", max),
            E::DateBefore { min } => message.text("min", min),
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
            | E::SameCurrency
            | E::WrongCurrentPassword
            | E::SameAsCurrentPassword => message,
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
            ProofError::Missing
            | ProofError::TooLarge { .. }
            | ProofError::WrongType
            | ProofError::Heif => message,
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

/// A number of a raffle of `max_tickets` numbers as people read it (`0046`).
fn padded(number: u32, max_tickets: u32) -> String {
    display_number(TicketNumber::from_stored(number), max_tickets)
}

/// One step of the draw's rule in words: what the certificate and the verifier print.
#[must_use]
pub fn draw_step(step: &DrawStep, max_tickets: u32) -> Message {
    let n = |number: u32| padded(number, max_tickets);
    match step {
        DrawStep::LastDigits {
            result,
            digits,
            used,
            number,
        } => Message::new("draw-step-last-digits")
            .text("result", result)
            .count("digits", u64::try_from(*digits).unwrap_or(u64::MAX))
            .text("used", used)
            .text("number", n(*number)),
        DrawStep::Beacon {
            round,
            randomness_hex,
            number,
        } => Message::new("draw-step-beacon")
            .text("round", round.to_string())
            .text("randomness", randomness_hex)
            .text("max", max_tickets.to_string())
            .text("number", n(*number)),
        DrawStep::NotInRaffle {
            number,
            max_tickets,
        } => Message::new("draw-step-not-in-raffle")
            .text("number", number.to_string())
            .text("max", max_tickets.to_string()),
        DrawStep::NotSold { number, next } => Message::new("draw-step-not-sold")
            .text("number", n(*number))
            .text("next", n(*next)),
        DrawStep::AlreadyWon { number, next } => Message::new("draw-step-already-won")
            .text("number", n(*number))
            .text("next", n(*next)),
        DrawStep::WrappedAround => Message::new("draw-step-wrapped-around"),
        DrawStep::Wins { number } => Message::new("draw-step-wins").text("number", n(*number)),
        DrawStep::NoWinner => Message::new("draw-step-no-winner"),
        DrawStep::Digits {
            result,
            digits,
            used,
        } => Message::new("draw-step-digits")
            .text("result", result)
            .count("digits", u64::try_from(*digits).unwrap_or(u64::MAX))
            .text("used", used),
        DrawStep::BeaconRandomness {
            round,
            randomness_hex,
        } => Message::new("draw-step-beacon-randomness")
            .text("round", round.to_string())
            .text("randomness", randomness_hex),
        DrawStep::Names { number } => Message::new("draw-step-names").text("number", n(*number)),
        DrawStep::OutsideRaffle {
            number,
            max_tickets,
        } => Message::new("draw-step-outside-raffle")
            .text("number", number.to_string())
            .text("max", max_tickets.to_string()),
        DrawStep::NotSoldNextSource { number } => {
            Message::new("draw-step-not-sold-next-source").text("number", n(*number))
        }
        DrawStep::AlreadyWonNextSource { number } => {
            Message::new("draw-step-already-won-next-source").text("number", n(*number))
        }
        DrawStep::IncompleteRound { count } => {
            Message::new("draw-step-incomplete-round").count("count", *count)
        }
        DrawStep::InPlay { count } => Message::new("draw-step-in-play").count("count", *count),
        DrawStep::Place {
            remainder,
            count,
            number,
        } => Message::new("draw-step-place")
            .count("count", *count)
            .text("remainder", remainder.to_string())
            .text("place", (u64::from(*remainder) + 1).to_string())
            .text("number", n(*number)),
        DrawStep::NextSource => Message::new("draw-step-next-source"),
        DrawStep::Rehashed { randomness_hex } => {
            Message::new("draw-step-rehashed").text("randomness", randomness_hex)
        }
        DrawStep::SourceLapsed { source, deadline } => Message::new("draw-step-source-lapsed")
            .count("source", *source)
            .text("deadline", deadline),
    }
}

/// What a check of a published draw found, in words (`rifa-api verify-draw`).
#[must_use]
pub fn draw_finding(finding: &Finding, max_tickets: u32) -> Message {
    let winner = |w: &Option<u32>| w.map_or_else(|| "—".to_owned(), |n| padded(n, max_tickets));
    match finding {
        Finding::NotSorted { index } => {
            Message::new("draw-check-not-sorted").text("index", (index + 1).to_string())
        }
        Finding::NotInRaffle { number } => Message::new("draw-check-not-in-raffle")
            .text("number", number.to_string())
            .text("max", max_tickets.to_string()),
        Finding::SizeDiffers { published, entries } => Message::new("draw-check-size-differs")
            .count("published", *published)
            .count("entries", u64::try_from(*entries).unwrap_or(u64::MAX)),
        Finding::RootMatches { size } => Message::new("draw-check-root-matches")
            .count("size", u64::try_from(*size).unwrap_or(u64::MAX)),
        Finding::RootDiffers { computed } => {
            Message::new("draw-check-root-differs").text("computed", to_hex(computed))
        }
        Finding::WinnerConfirmed {
            position,
            winner: w,
            ..
        } => Message::new("draw-check-winner-confirmed")
            .count("position", *position)
            .text("winner", winner(w)),
        Finding::WinnerDiffers {
            position,
            published,
            computed,
            ..
        } => Message::new("draw-check-winner-differs")
            .count("position", *position)
            .text("published", winner(published))
            .text("computed", winner(computed)),
        Finding::ResultUnreadable { position } => {
            Message::new("draw-check-result-unreadable").count("position", *position)
        }
        Finding::NotDrawn { position } => {
            Message::new("draw-check-not-drawn").count("position", *position)
        }
        Finding::BeaconInvalid { position } => {
            Message::new("draw-check-beacon-invalid").count("position", *position)
        }
        Finding::BeaconRoundDiffers {
            position,
            announced,
            used,
        } => Message::new("draw-check-beacon-round-differs")
            .count("position", *position)
            .text("announced", announced.to_string())
            .text("used", used.to_string()),
    }
}
