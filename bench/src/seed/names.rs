//! The words a year of purchases is made of: buyers' names as people in Venezuela, Colombia and
//! Mexico write them (accents included, so the folded search column matters), e-mail domains,
//! prizes.

/// First names, María first and often: the panel's name search for "mari" should match a real
/// share of buyers (María, Mariana, Marisol, Mario, Marín…), not a handful.
pub(crate) const FIRST_NAMES: &[&str] = &[
    "María",
    "María José",
    "María Fernanda",
    "María Gabriela",
    "Mariana",
    "Marisol",
    "Maribel",
    "Marina",
    "Mario",
    "José",
    "Juan",
    "Juan Carlos",
    "Luis",
    "Carlos",
    "Ana",
    "Ana Karina",
    "Andrea",
    "Gabriela",
    "Daniela",
    "Valentina",
    "Sofía",
    "Camila",
    "Isabella",
    "Lucía",
    "Paula",
    "Carmen",
    "Rosa",
    "Luisa",
    "Elena",
    "Patricia",
    "Laura",
    "Alejandra",
    "Fernanda",
    "Victoria",
    "Natalia",
    "Adriana",
    "Carolina",
    "Mónica",
    "Verónica",
    "Yolanda",
    "Gloria",
    "Beatriz",
    "Teresa",
    "Pedro",
    "Miguel",
    "Jesús",
    "Antonio",
    "Manuel",
    "Francisco",
    "Javier",
    "Rafael",
    "Alejandro",
    "Andrés",
    "Diego",
    "Jorge",
    "Ricardo",
    "Fernando",
    "Eduardo",
    "Roberto",
    "Sergio",
    "Pablo",
    "Daniel",
    "David",
    "Gabriel",
    "Ángel",
    "Óscar",
    "Héctor",
    "Raúl",
    "Julio",
    "César",
    "Víctor",
    "Marcos",
    "Samuel",
    "Sebastián",
    "Mateo",
    "Santiago",
    "Nicolás",
    "Tomás",
    "Emilio",
    "Ramón",
    "Gustavo",
    "Wilmer",
    "Yusbelis",
    "Yenny",
    "Dayana",
    "Génesis",
    "Nathaly",
    "Yorman",
    "Deivis",
    "Ónix",
];

pub(crate) const LAST_NAMES: &[&str] = &[
    "González",
    "Rodríguez",
    "Pérez",
    "Hernández",
    "García",
    "Martínez",
    "López",
    "Sánchez",
    "Ramírez",
    "Torres",
    "Flores",
    "Rivera",
    "Gómez",
    "Díaz",
    "Reyes",
    "Morales",
    "Cruz",
    "Ortiz",
    "Gutiérrez",
    "Chávez",
    "Ramos",
    "Romero",
    "Vargas",
    "Castillo",
    "Jiménez",
    "Moreno",
    "Álvarez",
    "Ruiz",
    "Mendoza",
    "Aguilar",
    "Medina",
    "Castro",
    "Herrera",
    "Rojas",
    "Suárez",
    "Vásquez",
    "Marín",
    "Blanco",
    "Guerrero",
    "Núñez",
    "Peña",
    "Soto",
    "Delgado",
    "Contreras",
    "Silva",
    "Méndez",
    "Fernández",
    "Acosta",
    "Molina",
    "Ibáñez",
    "Carrasco",
    "Salazar",
    "Paredes",
    "Quintero",
    "Briceño",
    "Colmenares",
    "Mariño",
    "Zambrano",
    "Montilla",
    "Urdaneta",
    "de la Cruz",
    "Muñoz",
];

/// E-mail domains, listed as often as they are drawn.
pub(crate) const DOMAINS: &[&str] = &[
    "gmail.com",
    "gmail.com",
    "gmail.com",
    "gmail.com",
    "gmail.com",
    "gmail.com",
    "gmail.com",
    "gmail.com",
    "gmail.com",
    "gmail.com",
    "hotmail.com",
    "hotmail.com",
    "hotmail.com",
    "hotmail.com",
    "hotmail.com",
    "yahoo.com",
    "yahoo.com",
    "outlook.com",
    "outlook.com",
    "icloud.com",
];

pub(crate) const PRIZES: &[&str] = &[
    "iPhone 16 Pro Max 256 GB",
    "Moto Yamaha DT 175 0 km",
    "Bono en efectivo de US$ 500",
    "Camioneta Toyota 4Runner",
    "Viaje para dos a Isla Margarita",
    "PlayStation 5 Slim",
    "Samsung Galaxy S25 Ultra",
    "Moto Bera SBR 150",
    "Bono en efectivo de US$ 1.000",
    "Televisor Samsung 65\" 4K",
    "MacBook Air M4",
    "Aire acondicionado Split 12.000 BTU",
    "Nevera LG Inverter",
    "Toyota Corolla 2024",
    "Viaje a Cancún todo incluido",
    "Bono de mercado de US$ 300",
];

/// Ticket prices in cents, drawn per raffle.
pub(crate) const PRICES_CENTS: &[i64] = &[100, 200, 300, 500, 500, 1_000, 1_300, 2_000];

/// Lower case without accents: the API's `fold_for_search` (Unicode decomposition, marks
/// dropped) for the letters these lists use. The tests check every word folds to plain ASCII,
/// so a new accented letter cannot slip through unfolded.
pub(crate) fn fold(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'á' | 'Á' => 'a',
            'é' | 'É' => 'e',
            'í' | 'Í' => 'i',
            'ó' | 'Ó' => 'o',
            'ú' | 'Ú' | 'ü' | 'Ü' => 'u',
            'ñ' | 'Ñ' => 'n',
            other => other.to_ascii_lowercase(),
        })
        .collect()
}

/// The e-mail form of a name: folded, without spaces.
pub(crate) fn mailbox(text: &str) -> String {
    fold(text).replace(' ', "")
}

/// `text` as a SQL string literal.
pub(crate) fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_folds_to_plain_lower_case() {
        for name in FIRST_NAMES.iter().chain(LAST_NAMES) {
            let folded = fold(name);
            assert!(
                folded.chars().all(|c| c.is_ascii_lowercase() || c == ' '),
                "{name} folds to {folded}"
            );
        }
        assert_eq!(fold("María José Ñuñez"), "maria jose nunez");
        assert_eq!(mailbox("María José"), "mariajose");
    }

    #[test]
    fn literals_are_escaped() {
        assert_eq!(quoted("Televisor 65\" d'or"), "'Televisor 65\" d''or'");
    }
}
