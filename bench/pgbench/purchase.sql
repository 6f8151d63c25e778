-- pgbench script: one purchase of three random numbers of a raffle of :tickets numbers (9,999 in
-- bench/run.sh, 99,999 in bench/fill.sh), the shape of
-- the write rifa-api makes for POST /api/raffles/{id}/purchase (one transaction: the purchase
-- row with its hold's deadline, then one purchase_tickets row per number with held = true; the
-- partial unique index on (raffle_id, number) WHERE held skips numbers already held; the
-- buyer's three allowance keys upserted (each a new buyer, as in the API benchmark); then the
-- buyer's e-mail in the outbox, which the API writes in the
-- same statement since it sends e-mails). No counter row is updated. (The API also counts the
-- e-mail against the recipient's caps, one more upsert this script leaves out.) A colon in a
-- string is followed by a quote: pgbench would read `'doc:V'` as the variable `V`.
--
--   pgbench -n -M prepared -c 64 -j 2 -T 20 -f bench/pgbench/purchase.sql \
--           -D raffle_base=<id> -D raffles=<count> -D method=<id> -D tickets=9999 postgres://…/rifa_bench_pg
--
-- Setup: bench/pgbench/setup.sql. The raffle is drawn among many, so that the three ticket rows
-- are really written (run.sh checks the rows per transaction afterwards). purchases.reference is unique: 'B<client>-<random 12 digits>'
-- (at most 16 characters; a collision among a few hundred thousand rows is practically nil).
\set raffle random(:raffle_base, :raffle_base + :raffles - 1)
\set n1 random(1, :tickets)
\set n2 random(1, :tickets)
\set n3 random(1, :tickets)
\set ref random(1, 999999999999)
\set person random(1, 999999999)
BEGIN;
INSERT INTO purchases (reference, raffle_id, customer_name, customer_name_folded,
                       customer_id_document, customer_email,
                       customer_phone, customer_phone_digits, customer_country, payment_method_id,
                       payment_method_name, conversion_currency, conversion_rate, ticket_numbers,
                       ticket_count, total_cents, discount_cents, status, created_at, decided_at,
                       payment_proof, admin_notes, lang, access_digest, hold_expires_at,
                       buyer_document_key, buyer_phone_key)
VALUES ('B' || CAST(:client_id AS text) || '-' || CAST(:ref AS text), :raffle, 'María González',
        'maria gonzalez',
        'V-18123456', 'buyer' || CAST(:client_id AS text) || '@bench.example', '+58 414 555 0101',
        '584145550101', 'venezuela', :method, 'Bench Pay', NULL, NULL,
        '[' || CAST(:n1 AS text) || ',' || CAST(:n2 AS text) || ',' || CAST(:n3 AS text) || ']',
        3, 300, 0, 'pending', now(), NULL, NULL, NULL, 'es',
        'c0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ff',
        now() + interval '30 minutes', 'V' || CAST(:person AS text), CAST(:person AS text))
RETURNING id AS purchase_id \gset
INSERT INTO purchase_tickets (purchase_id, raffle_id, number, held)
VALUES (:purchase_id, :raffle, :n1, true), (:purchase_id, :raffle, :n2, true),
       (:purchase_id, :raffle, :n3, true)
ON CONFLICT DO NOTHING
RETURNING number;
INSERT INTO buyer_allowance (raffle_id, buyer_key, tickets, cap)
VALUES (:raffle, 'doc:' || 'V' || CAST(:person AS text), 3, 3),
       (:raffle, 'email:' || 'p' || CAST(:person AS text) || '@bench.example', 3, 3),
       (:raffle, 'phone:' || CAST(:person AS text), 3, 3)
ON CONFLICT (raffle_id, buyer_key) DO UPDATE SET
    tickets = buyer_allowance.tickets + excluded.tickets, cap = excluded.cap;
INSERT INTO mail_outbox (purchase_id, kind, recipient, lang, status, attempts, next_attempt_at,
                         created_at)
VALUES (:purchase_id, 'received', 'buyer' || CAST(:client_id AS text) || '@bench.example', 'es',
        'pending', 0, now(), now());
COMMIT;
