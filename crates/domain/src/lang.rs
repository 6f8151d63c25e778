//! The two languages of the product. Which one a request asks for is the API's business
//! (`Accept-Language`); the words of each live in the `rifa-text` catalogue.

/// A language the product speaks. Spanish is the default everywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Lang {
    #[default]
    Es,
    En,
}

impl Lang {
    pub const ALL: [Self; 2] = [Self::Es, Self::En];

    /// The language of a stored code; anything unknown is Spanish, the default.
    #[must_use]
    pub fn from_code(code: &str) -> Self {
        if code == "en" { Self::En } else { Self::Es }
    }

    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Self::Es => "es",
            Self::En => "en",
        }
    }
}
