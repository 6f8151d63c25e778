//! The frozen ledger of a raffle and its commitment (decision 0020).
//!
//! When sales close, every sold number is written down with a salted tag of the purchase that
//! holds it, sorted by number, and the list is committed to by its Merkle root, built as
//! Certificate Transparency builds its logs (RFC 6962 §2.1; inclusion proofs checked as RFC 9162
//! §2.1.3.2 says). The root is published before any result is known: a ledger changed afterwards
//! has another root, and a buyer can check that their numbers are in it from their reference
//! alone. The hashing is SHA-256 from the `sha2` crate; only the tree's arrangement is ours, and
//! the site's verifier recomputes it with WebCrypto byte for byte.

use sha2::{Digest, Sha256};

/// A SHA-256 digest.
pub type Hash = [u8; 32];

/// What a purchase's tag is computed under, so a tag from this ledger means nothing elsewhere.
const TAG_CONTEXT: &[u8] = b"rifa-ledger-v1";

/// One sold number of the frozen ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LedgerEntry {
    pub number: u32,
    /// [`purchase_tag`] of the purchase holding the number.
    pub tag: Hash,
}

/// The tag standing for a purchase in the ledger: its reference hashed with the raffle's salt.
/// No name, e-mail or phone enters the ledger; a buyer who has their reference finds their
/// numbers, and the salt (published with the ledger) keeps tags of one raffle from being matched
/// against another's.
#[must_use]
pub fn purchase_tag(salt: &[u8], reference: &str) -> Hash {
    let mut hasher = Sha256::new();
    hasher.update(TAG_CONTEXT);
    hasher.update([0]);
    hasher.update(salt);
    hasher.update(reference.trim().to_ascii_uppercase().as_bytes());
    hasher.finalize().into()
}

/// The leaf of an entry: `SHA-256(0x00 ‖ number as 4 bytes big-endian ‖ tag)`.
#[must_use]
pub fn leaf_hash(entry: &LedgerEntry) -> Hash {
    let mut hasher = Sha256::new();
    hasher.update([0x00]);
    hasher.update(entry.number.to_be_bytes());
    hasher.update(entry.tag);
    hasher.finalize().into()
}

/// An inner node: `SHA-256(0x01 ‖ left ‖ right)`.
#[must_use]
pub fn node_hash(left: &Hash, right: &Hash) -> Hash {
    let mut hasher = Sha256::new();
    hasher.update([0x01]);
    hasher.update(left);
    hasher.update(right);
    hasher.finalize().into()
}

/// The root of a ledger with no entries (a raffle that sold nothing): SHA-256 of nothing.
#[must_use]
pub fn empty_root() -> Hash {
    Sha256::digest([]).into()
}

/// Every level of the tree over `leaves`, the leaves first and the root last. Pairs are hashed
/// left to right and an unpaired last node moves up unchanged, which gives RFC 6962's tree
/// (split at the largest power of two below the size) without recursion.
fn levels(leaves: Vec<Hash>) -> Vec<Vec<Hash>> {
    let mut levels = vec![leaves];
    while levels.last().is_some_and(|level| level.len() > 1) {
        let below = levels.last().map(Vec::as_slice).unwrap_or_default();
        let above = below
            .chunks(2)
            .map(|pair| match pair {
                [left, right] => node_hash(left, right),
                [alone] => *alone,
                _ => unreachable!("chunks(2) yields one or two"),
            })
            .collect();
        levels.push(above);
    }
    levels
}

/// A ledger's tree: its root and every entry's inclusion proof.
pub struct MerkleTree {
    levels: Vec<Vec<Hash>>,
}

impl MerkleTree {
    /// The tree over `entries` in the order given (the ledger sorts them by number).
    #[must_use]
    pub fn over(entries: &[LedgerEntry]) -> Self {
        Self {
            levels: levels(entries.iter().map(leaf_hash).collect()),
        }
    }

    #[must_use]
    pub fn size(&self) -> usize {
        self.levels.first().map_or(0, Vec::len)
    }

    #[must_use]
    pub fn root(&self) -> Hash {
        self.levels
            .last()
            .and_then(|top| top.first().copied())
            .unwrap_or_else(empty_root)
    }

    /// The sibling hashes from the entry at `index` up to the root, nearest first; `None` past
    /// the end.
    #[must_use]
    pub fn inclusion_proof(&self, index: usize) -> Option<Vec<Hash>> {
        if index >= self.size() {
            return None;
        }
        let mut proof = Vec::new();
        let mut at = index;
        for level in &self.levels[..self.levels.len() - 1] {
            let sibling = at ^ 1;
            if let Some(hash) = level.get(sibling) {
                proof.push(*hash);
            }
            at /= 2;
        }
        Some(proof)
    }
}

/// Whether `proof` shows the leaf `leaf` at `index` in a tree of `size` leaves with root `root`
/// (RFC 9162 §2.1.3.2).
#[must_use]
pub fn verify_inclusion(leaf: &Hash, index: u64, size: u64, proof: &[Hash], root: &Hash) -> bool {
    if index >= size {
        return false;
    }
    let (mut position, mut last) = (index, size - 1);
    let mut hash = *leaf;
    for sibling in proof {
        if last == 0 {
            return false;
        }
        if position % 2 == 1 || position == last {
            hash = node_hash(sibling, &hash);
            if position % 2 == 0 {
                while position % 2 == 0 && position != 0 {
                    position >>= 1;
                    last >>= 1;
                }
            }
        } else {
            hash = node_hash(&hash, sibling);
        }
        position >>= 1;
        last >>= 1;
    }
    last == 0 && hash == *root
}

/// Lower-case hexadecimal, as hashes are published.
#[must_use]
pub fn to_hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut out, byte| {
            let _ = write!(out, "{byte:02x}");
            out
        })
}

/// The bytes of a hexadecimal text (surrounding spaces ignored); `None` when it is not one.
#[must_use]
pub fn bytes_from_hex(text: &str) -> Option<Vec<u8>> {
    let text = text.trim();
    // Only hex digits: `u8::from_str_radix` alone would take a sign (`+f`).
    if !text.len().is_multiple_of(2) || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    text.as_bytes()
        .chunks(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok())
        .collect()
}

/// The bytes of a hexadecimal SHA-256 digest; `None` when it is not one.
#[must_use]
pub fn hash_from_hex(text: &str) -> Option<Hash> {
    bytes_from_hex(text)?.try_into().ok()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn entries(size: u32) -> Vec<LedgerEntry> {
        (1..=size)
            .map(|number| LedgerEntry {
                number,
                tag: purchase_tag(b"salt", &format!("RF-{}", number / 3)),
            })
            .collect()
    }

    /// RFC 6962's definition, recursively, to hold the bottom-up tree to.
    fn rfc6962_root(leaves: &[Hash]) -> Hash {
        match leaves {
            [] => empty_root(),
            [one] => *one,
            _ => {
                let split = leaves.len().next_power_of_two() / 2;
                node_hash(
                    &rfc6962_root(&leaves[..split]),
                    &rfc6962_root(&leaves[split..]),
                )
            }
        }
    }

    #[test]
    fn the_root_is_rfc_6962s_for_every_size_up_to_a_hundred() {
        for size in 0..=100 {
            let ledger = entries(size);
            let leaves: Vec<Hash> = ledger.iter().map(leaf_hash).collect();
            assert_eq!(
                MerkleTree::over(&ledger).root(),
                rfc6962_root(&leaves),
                "{size}"
            );
        }
    }

    #[test]
    fn known_answers_pin_the_encoding() {
        // The site's verifier and any third party must get these bytes exactly.
        let entry = LedgerEntry {
            number: 46,
            tag: purchase_tag(&[7; 16], " rf-abc123 "),
        };
        assert_eq!(
            entry.tag,
            purchase_tag(&[7; 16], "RF-ABC123"),
            "trimmed, upper case"
        );
        assert_eq!(
            to_hex(&empty_root()),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        let one = MerkleTree::over(&[entry]);
        assert_eq!(one.root(), leaf_hash(&entry));
        assert_eq!(one.inclusion_proof(0), Some(vec![]));
    }

    #[test]
    fn every_entry_of_every_small_ledger_proves_its_place_and_only_its_place() {
        for size in 1..=70_u32 {
            let ledger = entries(size);
            let tree = MerkleTree::over(&ledger);
            let root = tree.root();
            let bigger_root = MerkleTree::over(&entries(size + 1)).root();
            for (index, entry) in ledger.iter().enumerate() {
                let proof = tree.inclusion_proof(index).unwrap();
                let (i, n) = (index as u64, u64::from(size));
                assert!(
                    verify_inclusion(&leaf_hash(entry), i, n, &proof, &root),
                    "{index}/{size}"
                );
                // The size is published with the root: a proof holds for that pair only.
                assert!(!verify_inclusion(
                    &leaf_hash(entry),
                    i,
                    n + 1,
                    &proof,
                    &bigger_root
                ));
                if size > 1 {
                    let elsewhere = (i + 1) % n;
                    assert!(!verify_inclusion(
                        &leaf_hash(entry),
                        elsewhere,
                        n,
                        &proof,
                        &root
                    ));
                }
            }
            assert_eq!(tree.inclusion_proof(size as usize), None);
        }
    }

    #[test]
    fn hex_goes_both_ways_and_refuses_what_is_not_a_digest() {
        let hash = purchase_tag(b"s", "RF-1");
        assert_eq!(hash_from_hex(&to_hex(&hash)), Some(hash));
        assert_eq!(hash_from_hex(&to_hex(&hash).to_uppercase()), Some(hash));
        for bad in ["", "00", &"g".repeat(64), &"é".repeat(32)] {
            assert_eq!(hash_from_hex(bad), None, "{bad}");
        }
    }

    proptest! {
        #[test]
        fn a_single_changed_entry_changes_the_root_and_fails_its_proof(
            size in 1_u32..400,
            pick in any::<prop::sample::Index>(),
            change in 0_u8..3,
        ) {
            let ledger = entries(size);
            let tree = MerkleTree::over(&ledger);
            let index = pick.index(ledger.len());
            let proof = tree.inclusion_proof(index).unwrap();
            let mut forged = ledger[index];
            match change {
                0 => forged.number += 1_000,
                1 => forged.tag[0] ^= 1,
                _ => forged.tag = purchase_tag(b"salt", "RF-SOMEONE-ELSE"),
            }
            let mut tampered = ledger.clone();
            tampered[index] = forged;

            prop_assert_ne!(MerkleTree::over(&tampered).root(), tree.root());
            prop_assert!(!verify_inclusion(
                &leaf_hash(&forged),
                index as u64,
                u64::from(size),
                &proof,
                &tree.root()
            ));
        }

        #[test]
        fn a_removed_or_added_entry_changes_the_root(size in 2_u32..300, pick in any::<prop::sample::Index>()) {
            let ledger = entries(size);
            let root = MerkleTree::over(&ledger).root();
            let mut fewer = ledger.clone();
            fewer.remove(pick.index(ledger.len()));
            let mut more = ledger.clone();
            more.push(LedgerEntry { number: size + 1, tag: [0; 32] });

            prop_assert_ne!(MerkleTree::over(&fewer).root(), root);
            prop_assert_ne!(MerkleTree::over(&more).root(), root);
        }
    }
}
