//! `rifa-api verify-draw FILE`: the check anyone can run offline on a published draw file
//! (`GET /api/raffles/{id}/draw/ledger`), with the same rule and tree the server used
//! (`rifa_domain::draw`), worded by the text catalogue.

use rifa_domain::Lang;
use rifa_domain::draw::verify::{Finding, check, numbers_of};
use rifa_text::{Message, draw_finding, draw_step};

use crate::dto::{PublishedDrawDto, UnreadableDraw};

/// What a check printed, and whether the draw holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub lines: Vec<String>,
    /// No finding says the published draw does not hold (and the reference, when given, has
    /// its numbers in the ledger).
    pub holds: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum VerifyDrawError {
    #[error("the file is not JSON of a published draw: {0}")]
    Json(#[from] serde_json::Error),
    #[error(transparent)]
    Unreadable(#[from] UnreadableDraw),
}

/// Checks the published draw in `json`; with `reference`, also that purchase's numbers.
///
/// # Errors
/// When the file is not a published draw at all.
pub fn verify(json: &str, reference: Option<&str>, lang: Lang) -> Result<Report, VerifyDrawError> {
    let file: PublishedDrawDto = serde_json::from_str(json)?;
    let draw = file.to_published()?;
    let max = draw.max_tickets;
    let mut lines = vec![
        Message::new("draw-check-title")
            .text("raffle", &file.raffle_title)
            .text("root", &file.root)
            .render(lang),
    ];
    let findings = check(&draw);
    let mut holds = !findings.iter().any(Finding::is_problem);
    for finding in &findings {
        let mark = if finding.is_problem() { "✗" } else { "✓" };
        lines.push(format!(
            "{mark} {}",
            draw_finding(finding, max).render(lang)
        ));
        if let Finding::WinnerConfirmed { steps, .. } | Finding::WinnerDiffers { steps, .. } =
            finding
        {
            lines.extend(
                steps
                    .iter()
                    .map(|step| format!("    · {}", draw_step(step, max).render(lang))),
            );
        }
    }
    if let Some(reference) = reference {
        let numbers = numbers_of(&draw, reference);
        let shown: Vec<String> = numbers
            .iter()
            .map(|(n, _)| {
                rifa_domain::ticket::display_number(
                    rifa_domain::ticket::TicketNumber::from_stored(*n),
                    max,
                )
            })
            .collect();
        let proven = numbers.iter().all(|(_, proven)| *proven);
        let key = match (numbers.is_empty(), proven) {
            (true, _) => "draw-check-reference-none",
            (false, true) => "draw-check-reference-found",
            (false, false) => "draw-check-reference-unproven",
        };
        holds &= !numbers.is_empty() && proven;
        let mark = if !numbers.is_empty() && proven {
            "✓"
        } else {
            "✗"
        };
        lines.push(format!(
            "{mark} {}",
            Message::new(key)
                .text("reference", reference.trim().to_uppercase())
                .count("count", u64::try_from(numbers.len()).unwrap_or(u64::MAX))
                .text("numbers", shown.join(", "))
                .render(lang)
        ));
    }
    Ok(Report { lines, holds })
}
