-- Diagnostic pgbench script: every statement rifa-api sends to PostgreSQL for one purchase (as
-- logged with log_statement = 'all'), in order, with the same parameters. It measures what the
-- database alone allows for the API's current query sequence, without HTTP, JSON or the pool:
--
--   pgbench -n -M prepared -c 16 -j 2 -T 20 -f bench/pgbench/api-shape.sql \
--           -D raffle=<id> -D method=<id> postgres://…/rifa_bench_pg
--
-- Compare with purchase.sql (the write alone). Setup: setup.sql. Not part of bench/run.sh.
\set n1 random(1, 9999)
\set n2 random(1, 9999)
\set n3 random(1, 9999)
\set ref random(1, 999999999999)
\set yes 1
-- the raffle, then how many of its numbers are held (load_raffle)
SELECT id, title, description, image, price_cents, status, max_tickets, min_per_purchase,
       max_per_purchase, draw_date, end_date, created_at
FROM raffles WHERE id = :raffle LIMIT 1;
SELECT raffle_id, COUNT(number) AS sold FROM purchase_tickets
WHERE held = CAST(:yes AS boolean) AND raffle_id IN (:raffle) GROUP BY raffle_id;
-- active payment methods, exchange rates, the discount table
SELECT id, name, kind, active, details, exchange_rate_id FROM payment_methods
WHERE active = CAST(:yes AS boolean) ORDER BY id ASC;
SELECT id, from_currency, to_currency, rate, updated_at FROM exchange_rates ORDER BY id ASC;
SELECT key, value FROM settings WHERE key = 'discounts' LIMIT 1;
-- the purchase transaction
BEGIN;
INSERT INTO purchases (reference, raffle_id, customer_name, customer_name_folded,
                       customer_id_document, customer_email, customer_phone,
                       customer_phone_digits, customer_country, payment_method_id,
                       payment_method_name, conversion_currency, conversion_rate, ticket_numbers,
                       ticket_count, total_cents, discount_cents, status, created_at)
VALUES ('B' || CAST(:client_id AS text) || '-' || CAST(:ref AS text), :raffle, 'María González',
        'maria gonzalez', 'V-18123456', 'buyer' || CAST(:client_id AS text) || '@bench.example',
        '+58 414 555 0101', '584145550101', 'venezuela', :method, 'Bench Pay', NULL, NULL,
        '[' || CAST(:n1 AS text) || ',' || CAST(:n2 AS text) || ',' || CAST(:n3 AS text) || ']',
        3, 300, 0, 'pending', now())
RETURNING id AS purchase_id, reference, raffle_id, customer_name, customer_name_folded,
          customer_id_document, customer_email, customer_phone, customer_phone_digits,
          customer_country, payment_method_id, payment_method_name, conversion_currency,
          conversion_rate, ticket_numbers, ticket_count, total_cents, discount_cents, status,
          created_at, decided_at, payment_proof, admin_notes \gset
INSERT INTO purchase_tickets (purchase_id, raffle_id, number, held)
VALUES (:purchase_id, :raffle, :n1, CAST(:yes AS boolean)),
       (:purchase_id, :raffle, :n2, CAST(:yes AS boolean)),
       (:purchase_id, :raffle, :n3, CAST(:yes AS boolean))
ON CONFLICT DO NOTHING
RETURNING number;
COMMIT;
-- the raffle's title for the receipt
SELECT id, title, description, image, price_cents, status, max_tickets, min_per_purchase,
       max_per_purchase, draw_date, end_date, created_at
FROM raffles WHERE id = :raffle LIMIT 1;
