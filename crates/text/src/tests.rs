//! The catalogue is whole: both files parse, have the same keys with the same variables, and
//! every code the domain can refuse with has its text. The spec's Spanish wordings are pinned.

use std::collections::{BTreeMap, BTreeSet};

use fluent_syntax::ast;
use rifa_domain::FieldError;
use rifa_domain::lookup::LookupMiss;
use rifa_domain::proof::{ProofError, ProofKind};
use rifa_domain::purchase::{NotPending, PurchaseStatus};

use crate::catalogue::{ENGLISH, SPANISH};
use crate::{Lang, Message};

/// Variables a text may leave out in one language, with the reason.
const ONE_LANGUAGE_ONLY: &[(&str, &str)] = &[
    // The estimator's reasons are English words; the Spanish text gives its own advice.
    ("field-weak_password", "reasons"),
    ("field-weak_password", "reason_count"),
];

/// Each message id of `source` with the variables its value uses.
fn variables_by_key(source: &str) -> BTreeMap<String, BTreeSet<String>> {
    let resource = fluent_syntax::parser::parse(source).unwrap_or_else(|(_, errors)| {
        panic!("{errors:?}");
    });
    let mut keys = BTreeMap::new();
    for entry in resource.body {
        if let ast::Entry::Message(message) = entry {
            let mut variables = BTreeSet::new();
            if let Some(pattern) = &message.value {
                pattern_variables(pattern, &mut variables);
            }
            let previous = keys.insert(message.id.name.to_owned(), variables);
            assert!(previous.is_none(), "{} twice", message.id.name);
        }
    }
    keys
}

fn pattern_variables(pattern: &ast::Pattern<&str>, out: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            expression_variables(expression, out);
        }
    }
}

fn expression_variables(expression: &ast::Expression<&str>, out: &mut BTreeSet<String>) {
    match expression {
        ast::Expression::Select { selector, variants } => {
            inline_variables(selector, out);
            for variant in variants {
                pattern_variables(&variant.value, out);
            }
        }
        ast::Expression::Inline(inline) => inline_variables(inline, out),
    }
}

fn inline_variables(inline: &ast::InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match inline {
        ast::InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_owned());
        }
        ast::InlineExpression::Placeable { expression } => expression_variables(expression, out),
        _ => {}
    }
}

#[test]
fn both_files_parse_whole_with_each_key_once() {
    for source in [SPANISH, ENGLISH] {
        assert!(!variables_by_key(source).is_empty());
    }
}

#[test]
fn every_key_exists_in_both_languages_with_the_same_variables() {
    let spanish = variables_by_key(SPANISH);
    let english = variables_by_key(ENGLISH);
    let spanish_keys: Vec<_> = spanish.keys().collect();
    let english_keys: Vec<_> = english.keys().collect();
    assert_eq!(spanish_keys, english_keys);
    for (key, es) in &spanish {
        let strip = |vars: &BTreeSet<String>| -> BTreeSet<String> {
            vars.iter()
                .filter(|v| !ONE_LANGUAGE_ONLY.contains(&(key.as_str(), v.as_str())))
                .cloned()
                .collect()
        };
        assert_eq!(strip(es), strip(&english[key]), "{key}");
    }
    assert_eq!(crate::keys().len(), spanish.len());
}

/// One of each refusal; the `match` stops compiling when a variant is added without a sample.
fn every_field_error() -> Vec<FieldError> {
    let samples = vec![
        FieldError::Required,
        FieldError::InvalidCharacters,
        FieldError::TooShort { min: 3 },
        FieldError::TooLong { max: 50 },
        FieldError::NameTooShort,
        FieldError::NameNotPlain,
        FieldError::InvalidEmail,
        FieldError::PhoneTooShort,
        FieldError::PaymentMethodRequired,
        FieldError::PaymentMethodUnavailable,
        FieldError::TermsNotAccepted,
        FieldError::NotANumber,
        FieldError::OutOfRange {
            min: "1".into(),
            max: "10".into(),
        },
        FieldError::TooManyDecimals { max: 2 },
        FieldError::UnknownOption {
            allowed: vec!["a", "b"],
        },
        FieldError::InvalidDate,
        FieldError::DateBefore {
            min: "2030-01-15".into(),
        },
        FieldError::InvalidUrl,
        FieldError::InvalidHsl,
        FieldError::TicketsEmpty,
        FieldError::TicketsBelowMinimum { min: 2 },
        FieldError::TicketsAboveMaximum { max: 1 },
        FieldError::PerPersonLimit { max: 3, used: 2 },
        FieldError::TicketOutOfRange { number: 0, max: 99 },
        FieldError::TicketRepeated { number: 7 },
        FieldError::NumbersAndRandomCount,
        FieldError::MinAboveMax,
        FieldError::WeakPassword {
            warning: None,
            suggestions: Vec::new(),
        },
        FieldError::NotesRequiredToReject,
        FieldError::LookupValueRequired,
        FieldError::SameCurrency,
        FieldError::WrongCurrentPassword,
        FieldError::SameAsCurrentPassword,
    ];
    for sample in &samples {
        match sample {
            FieldError::Required
            | FieldError::InvalidCharacters
            | FieldError::TooShort { .. }
            | FieldError::TooLong { .. }
            | FieldError::NameTooShort
            | FieldError::NameNotPlain
            | FieldError::InvalidEmail
            | FieldError::PhoneTooShort
            | FieldError::PaymentMethodRequired
            | FieldError::PaymentMethodUnavailable
            | FieldError::TermsNotAccepted
            | FieldError::NotANumber
            | FieldError::OutOfRange { .. }
            | FieldError::TooManyDecimals { .. }
            | FieldError::UnknownOption { .. }
            | FieldError::InvalidDate
            | FieldError::DateBefore { .. }
            | FieldError::InvalidUrl
            | FieldError::InvalidHsl
            | FieldError::TicketsEmpty
            | FieldError::TicketsBelowMinimum { .. }
            | FieldError::TicketsAboveMaximum { .. }
            | FieldError::PerPersonLimit { .. }
            | FieldError::TicketOutOfRange { .. }
            | FieldError::TicketRepeated { .. }
            | FieldError::NumbersAndRandomCount
            | FieldError::MinAboveMax
            | FieldError::WeakPassword { .. }
            | FieldError::NotesRequiredToReject
            | FieldError::LookupValueRequired
            | FieldError::SameCurrency
            | FieldError::WrongCurrentPassword
            | FieldError::SameAsCurrentPassword => {}
        }
    }
    samples
}

fn every_domain_refusal() -> Vec<Message> {
    let mut messages: Vec<Message> = every_field_error().iter().map(Message::from).collect();
    let (png, pdf) = (ProofKind::Png, ProofKind::Pdf);
    for error in [
        ProofError::Missing,
        ProofError::TooLarge { size: 6_000_000 },
        ProofError::WrongType,
        ProofError::NotAsDeclared {
            declared: png,
            actual: pdf,
        },
        ProofError::Unreadable { kind: pdf },
        ProofError::TooManyPixels {
            width: 30_000,
            height: 30_000,
        },
    ] {
        messages.push(Message::from(&error));
    }
    for miss in [LookupMiss::NoPurchases, LookupMiss::NoneInActiveRaffles] {
        messages.push(Message::from(&miss));
    }
    for current in PurchaseStatus::ALL {
        messages.push(Message::from(&NotPending { current }));
    }
    messages
}

#[test]
fn every_refusal_of_the_domain_renders_in_both_languages() {
    let field_codes: BTreeSet<&str> = every_field_error().iter().map(FieldError::code).collect();
    assert_eq!(field_codes.len(), every_field_error().len(), "codes repeat");
    for message in every_domain_refusal() {
        for lang in [Lang::Es, Lang::En] {
            let text = message
                .try_render(lang)
                .unwrap_or_else(|e| panic!("{message:?}: {e}"));
            assert!(!text.trim().is_empty(), "{message:?}");
            assert!(!text.contains('{'), "{message:?}: {text}");
        }
    }
}

#[test]
fn a_missing_key_or_variable_is_an_error_to_tests_and_a_fallback_at_run_time() {
    let missing = Message::new("no_such_code");
    assert!(missing.try_render(Lang::En).is_err());
    assert_eq!(missing.render(Lang::En), "no_such_code");
    assert!(Message::new("not_found").try_render(Lang::En).is_ok());
    let without_its_variable = Message::new("unsupported_media_type");
    assert!(without_its_variable.try_render(Lang::Es).is_err());
    assert_eq!(
        without_its_variable.render(Lang::Es),
        "Se esperaba {$expected}"
    );
}

#[test]
fn field_messages_match_the_spec_in_spanish_and_read_well_in_english() {
    let cases = [
        (
            FieldError::NameTooShort,
            "Nombre debe tener al menos 2 caracteres",
            "Name must be at least 2 characters",
        ),
        (FieldError::InvalidEmail, "Email inválido", "Invalid email"),
        (
            FieldError::PaymentMethodRequired,
            "Método de pago requerido",
            "Payment method is required",
        ),
        (
            FieldError::TermsNotAccepted,
            "Debes aceptar los términos",
            "You must accept the terms",
        ),
        (
            FieldError::LookupValueRequired,
            "Debes ingresar un valor para verificar",
            "Enter a value to verify",
        ),
        (
            FieldError::TicketsBelowMinimum { min: 2 },
            "Compra Mínima: Debes seleccionar al menos 2 boleto(s).",
            "Minimum purchase: you must select at least 2 tickets.",
        ),
        (
            FieldError::TicketsBelowMinimum { min: 1 },
            "Compra Mínima: Debes seleccionar al menos 1 boleto(s).",
            "Minimum purchase: you must select at least 1 ticket.",
        ),
        (
            FieldError::TicketsAboveMaximum { max: 1 },
            "Límite de Boletos: Solo puedes comprar máximo 1 boletos en esta compra.",
            "Ticket limit: you can buy at most 1 ticket in this purchase.",
        ),
        (
            FieldError::TicketsAboveMaximum { max: 10_000 },
            "Límite de Boletos: Solo puedes comprar máximo 10000 boletos en esta compra.",
            "Ticket limit: you can buy at most 10000 tickets in this purchase.",
        ),
        (
            FieldError::OutOfRange {
                min: "0.01".into(),
                max: "1000000".into(),
            },
            "Debe estar entre 0.01 y 1000000",
            "Must be between 0.01 and 1000000",
        ),
        (
            FieldError::UnknownOption {
                allowed: vec!["USD", "EUR"],
            },
            "Valor no válido; opciones: USD, EUR",
            "Invalid value; options: USD, EUR",
        ),
        (
            FieldError::TicketOutOfRange {
                number: 12_345_678_901_234,
                max: 100,
            },
            "El boleto 12345678901234 no existe en este sorteo (1 a 100)",
            "Ticket 12345678901234 does not exist in this raffle (1 to 100)",
        ),
        (
            FieldError::InvalidHsl,
            "Color no válido; usa el formato HSL \"240 9% 3.9%\"",
            "Invalid colour; use the HSL form \"240 9% 3.9%\"",
        ),
        (
            FieldError::WeakPassword {
                warning: None,
                suggestions: Vec::new(),
            },
            "Contraseña demasiado fácil de adivinar: usa una frase larga de palabras poco \
             comunes, sin nombres, fechas, repeticiones ni secuencias de teclado",
            "Password too easy to guess; use a longer phrase of uncommon words",
        ),
        (
            FieldError::WeakPassword {
                warning: Some("Repeats like \"aaa\" are easy to guess.".into()),
                suggestions: vec!["Avoid repeated words and characters.".into()],
            },
            "Contraseña demasiado fácil de adivinar: usa una frase larga de palabras poco \
             comunes, sin nombres, fechas, repeticiones ni secuencias de teclado",
            "Password too easy to guess: Repeats like \"aaa\" are easy to guess. Avoid repeated \
             words and characters.",
        ),
    ];
    for (error, es, en) in cases {
        let message = Message::from(&error);
        assert_eq!(message.render(Lang::Es), es);
        assert_eq!(message.render(Lang::En), en);
    }
}

#[test]
fn proof_lookup_and_decision_messages_are_the_specs_in_spanish() {
    let cases = [
        (
            Message::from(&ProofError::Missing),
            "Comprobante requerido - Debes subir un comprobante de pago",
            "Proof of payment required - You must upload a proof of payment",
        ),
        (
            Message::from(&ProofError::TooLarge { size: 6 }),
            "Archivo muy grande - El archivo debe ser menor a 5MB",
            "File too large - The file must be smaller than 5MB",
        ),
        (
            Message::from(&ProofError::WrongType),
            "Tipo de archivo no válido - Solo se permiten imágenes (JPG, PNG, GIF, WEBP) y PDFs",
            "Invalid file type - Only images (JPG, PNG, GIF, WEBP) and PDFs are allowed",
        ),
        (
            Message::from(&ProofError::NotAsDeclared {
                declared: ProofKind::Png,
                actual: ProofKind::Pdf,
            }),
            "Tipo de archivo no válido - El archivo es un PDF pero se envió como PNG; guárdalo \
             con la extensión .pdf y súbelo de nuevo",
            "Invalid file type - The file is a PDF but was sent as a PNG; save it with the .pdf \
             extension and upload it again",
        ),
        (
            Message::from(&ProofError::Unreadable {
                kind: ProofKind::Pdf,
            }),
            "Archivo dañado - El archivo no es un PDF válido; ábrelo para comprobarlo y súbelo \
             de nuevo",
            "Damaged file - The file is not a valid PDF; open it to check it and upload it again",
        ),
        (
            Message::from(&ProofError::TooManyPixels {
                width: 30_000,
                height: 30_000,
            }),
            "Imagen muy grande - La imagen mide 30000×30000 píxeles; debe tener como máximo 40 \
             megapíxeles",
            "Image too large - The image is 30000×30000 pixels; it must have at most 40 \
             megapixels",
        ),
        (
            Message::from(&LookupMiss::NoPurchases),
            "No se encontraron boletos para este email/teléfono",
            "No tickets were found for this email/phone",
        ),
        (
            Message::from(&LookupMiss::NoneInActiveRaffles),
            "No tienes boletos en sorteos activos en este momento.",
            "You have no tickets in active raffles right now.",
        ),
        (
            Message::from(&NotPending {
                current: PurchaseStatus::Approved,
            }),
            "Esta compra ya está aprobada; solo se pueden aprobar o rechazar compras pendientes",
            "This purchase is already approved; only pending purchases can be approved or \
             rejected",
        ),
        (
            Message::from(&NotPending {
                current: PurchaseStatus::Test,
            }),
            "Esta compra ya está marcada como prueba; solo se pueden aprobar o rechazar compras \
             pendientes",
            "This purchase is already a test; only pending purchases can be approved or rejected",
        ),
    ];
    for (message, es, en) in cases {
        assert_eq!(message.render(Lang::Es), es, "{message:?}");
        assert_eq!(message.render(Lang::En), en, "{message:?}");
    }
}

#[test]
fn counts_choose_the_singular_only_for_one() {
    let wait = |seconds: u64| Message::new("rate_limited").count("seconds", seconds);
    assert_eq!(
        wait(1).render(Lang::Es),
        "Demasiados intentos. Espera 1 segundo e inténtalo de nuevo."
    );
    assert_eq!(
        wait(1).render(Lang::En),
        "Too many attempts. Wait 1 second and try again."
    );
    assert_eq!(
        wait(2).render(Lang::Es),
        "Demasiados intentos. Espera 2 segundos e inténtalo de nuevo."
    );
    assert_eq!(
        wait(1_000_000).render(Lang::En),
        "Too many attempts. Wait 1000000 seconds and try again."
    );
}

proptest::proptest! {
    /// Whatever a client sends lands in a refusal's parameters: every refusal still renders
    /// whole, in both languages, without a panic.
    #[test]
    fn refusals_render_whatever_their_values(
        raw in proptest::prelude::any::<String>(),
        number in proptest::prelude::any::<i64>(),
        count in proptest::prelude::any::<u32>(),
        size in proptest::prelude::any::<usize>(),
    ) {
        let errors = [
            FieldError::TooShort { min: size },
            FieldError::TooLong { max: size },
            FieldError::OutOfRange { min: raw.clone(), max: raw.clone() },
            FieldError::DateBefore { min: raw.clone() },
            FieldError::TooManyDecimals { max: count },
            FieldError::TicketsBelowMinimum { min: count },
            FieldError::TicketsAboveMaximum { max: count },
            FieldError::TicketOutOfRange { number, max: count },
            FieldError::TicketRepeated { number: count },
            FieldError::WeakPassword { warning: Some(raw.clone()), suggestions: vec![raw.clone()] },
        ];
        for error in &errors {
            for lang in [Lang::Es, Lang::En] {
                let rendered = Message::from(error).try_render(lang);
                proptest::prop_assert!(rendered.is_ok(), "{error:?}: {rendered:?}");
            }
        }
    }
}

#[test]
fn too_few_left_says_none_one_or_how_many() {
    let left = |available: u64| Message::new("too_few_left").count("available", available);
    assert_eq!(
        left(0).render(Lang::Es),
        "Ya no quedan números disponibles en este sorteo."
    );
    assert_eq!(
        left(1).render(Lang::En),
        "Only 1 number is left in this raffle: ask for 1 or pick it from the list."
    );
    assert_eq!(
        left(3).render(Lang::Es),
        "Solo quedan 3 números disponibles en este sorteo: pide 3 o menos."
    );
}
