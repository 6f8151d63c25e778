-- One raffle for pgbench's purchase script, in a database that rifa-api has migrated (start the
-- API once on it so the migrations run). Prints "<raffle id> <payment method id>": pass them to
-- pgbench as -D raffle=… -D method=….
--
--   psql -Atq -f bench/pgbench/setup.sql postgres://…/rifa_bench_pg
--
-- The raffle matches the API scenario: 9,999 numbers, price 1 (100 cents), 1 to 3 per purchase.
\set ON_ERROR_STOP on
INSERT INTO payment_methods (name, kind, active, details, exchange_rate_id)
VALUES ('Bench Pay', 'digital', true, '{"email":"pagos@example.com"}', NULL)
RETURNING id AS method \gset
INSERT INTO raffles (title, description, image, price_cents, status, max_tickets,
                     min_per_purchase, max_per_purchase, draw_date, end_date, created_at)
VALUES ('Rifa de pgbench', 'Rifa creada para pgbench', '', 100, 'available', 9999,
        1, 3, '2030-01-15 23:59:59+00', NULL, now())
RETURNING id AS raffle \gset
SELECT :raffle || ' ' || :method;
