//! drand's "quicknet" beacon (decision 0020): a prize may be drawn from a round fixed before
//! sales close. A round's signature is a BLS signature of the round number by the League of
//! Entropy's network, checked with `drand-verify` against the chain's public key; its
//! randomness is SHA-256 of the signature. Anyone can fetch the round from any drand relay and
//! check it the same way, offline.

use chrono::{DateTime, TimeDelta, Utc};
use drand_verify::{G2PubkeyRfc, Pubkey, derive_randomness};

use super::ledger::bytes_from_hex;

/// The quicknet chain's hash: where its rounds are published (`/{hash}/public/{round}`).
pub const QUICKNET_CHAIN_HASH: &str =
    "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971";
/// The chain's public key (scheme `bls-unchained-g1-rfc9380`), from its `/info`.
const QUICKNET_PUBLIC_KEY: &str = "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a";
/// Round 1's time (Unix seconds) and the seconds between rounds.
const QUICKNET_GENESIS: i64 = 1_692_803_367;
const QUICKNET_PERIOD_SECS: i64 = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BeaconError {
    /// Not a signature of that round by the quicknet network.
    #[error("the signature is not quicknet's for round {round}")]
    InvalidSignature { round: u64 },
}

/// The randomness of quicknet's `round`, when `signature` is that round's.
///
/// # Errors
/// `InvalidSignature` for anything else (another round's, a forged or malformed signature).
pub fn verify_quicknet(round: u64, signature: &[u8]) -> Result<[u8; 32], BeaconError> {
    let invalid = BeaconError::InvalidSignature { round };
    let key = G2PubkeyRfc::from_variable(&bytes_from_hex(QUICKNET_PUBLIC_KEY).unwrap_or_default())
        .map_err(|_| invalid)?;
    match key.verify(round, b"", signature) {
        Ok(true) => Ok(derive_randomness(signature)),
        _ => Err(invalid),
    }
}

/// When quicknet publishes `round`.
#[must_use]
pub fn round_time(round: u64) -> DateTime<Utc> {
    let offset = i64::try_from(round.saturating_sub(1))
        .unwrap_or(i64::MAX / QUICKNET_PERIOD_SECS)
        .saturating_mul(QUICKNET_PERIOD_SECS);
    DateTime::from_timestamp(QUICKNET_GENESIS, 0)
        .unwrap_or_default()
        .checked_add_signed(TimeDelta::seconds(offset))
        .unwrap_or(DateTime::<Utc>::MAX_UTC)
}

/// The first round quicknet publishes at or after `at`.
#[must_use]
pub fn first_round_from(at: DateTime<Utc>) -> u64 {
    let since_genesis = at.timestamp().saturating_sub(QUICKNET_GENESIS);
    if since_genesis < 0 {
        return 1;
    }
    let periods = since_genesis.div_euclid(QUICKNET_PERIOD_SECS)
        + i64::from(
            since_genesis.rem_euclid(QUICKNET_PERIOD_SECS) > 0 || at.timestamp_subsec_nanos() > 0,
        );
    u64::try_from(periods).unwrap_or(0) + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::ledger::{hash_from_hex, to_hex};

    /// Round 657413 as api.drand.sh published it (recorded: tests reach no network).
    const ROUND: u64 = 657_413;
    const SIGNATURE: &str = "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b";
    const RANDOMNESS: &str = "fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587";

    #[test]
    fn a_recorded_round_verifies_and_gives_its_randomness() {
        let randomness =
            verify_quicknet(ROUND, &bytes_from_hex(SIGNATURE).expect("hex")).expect("valid");
        assert_eq!(Some(randomness), hash_from_hex(RANDOMNESS));
    }

    #[test]
    fn another_rounds_or_an_altered_signature_is_refused() {
        assert_eq!(
            verify_quicknet(ROUND + 1, &bytes_from_hex(SIGNATURE).expect("hex")),
            Err(BeaconError::InvalidSignature { round: ROUND + 1 })
        );
        let mut altered = bytes_from_hex(SIGNATURE).expect("hex");
        altered[10] ^= 1;
        assert!(verify_quicknet(ROUND, &altered).is_err());
        assert!(verify_quicknet(ROUND, &altered[..20]).is_err());
        assert_eq!(to_hex(&bytes_from_hex(SIGNATURE).expect("hex")), SIGNATURE);
    }

    #[test]
    fn the_first_round_from_an_instant_is_never_before_it() {
        let on = round_time(ROUND);
        assert_eq!(first_round_from(on), ROUND);
        assert_eq!(first_round_from(on + TimeDelta::milliseconds(1)), ROUND + 1);
        assert_eq!(first_round_from(on - TimeDelta::seconds(1)), ROUND);
        assert_eq!(first_round_from(on - TimeDelta::seconds(3)), ROUND - 1);
        assert_eq!(first_round_from(DateTime::<Utc>::UNIX_EPOCH), 1);
        assert_eq!(
            first_round_from(DateTime::<Utc>::UNIX_EPOCH + TimeDelta::milliseconds(500)),
            1,
            "before genesis, a fraction of a second changes nothing"
        );
    }

    #[test]
    fn rounds_come_every_three_seconds_from_genesis() {
        assert_eq!(round_time(1).timestamp(), QUICKNET_GENESIS);
        assert_eq!(
            round_time(ROUND).timestamp(),
            QUICKNET_GENESIS + 3 * (ROUND as i64 - 1)
        );
    }
}
