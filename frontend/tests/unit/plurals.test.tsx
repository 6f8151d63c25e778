import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { createTranslator, NextIntlClientProvider } from "next-intl";
import es from "../../messages/es.json";
import en from "../../messages/en.json";
import { TicketPicker } from "@/components/raffle/ticket-picker";

const MESSAGES = { es, en } as const;

/** Counted texts with a count of 1 and 2: the noun agrees with the number in both languages. */
const COUNTED: { key: string; values: (n: number) => Record<string, string | number>; one: Record<"es" | "en", string>; two: Record<"es" | "en", string> }[] = [
  { key: "picker.availableCount", values: (n) => ({ count: n, shown: String(n) }), one: { es: "1 número disponible", en: "1 number available" }, two: { es: "2 números disponibles", en: "2 numbers available" } },
  { key: "picker.found", values: (n) => ({ count: n, shown: String(n) }), one: { es: "1 encontrado", en: "1 found" }, two: { es: "2 encontrados", en: "2 found" } },
  { key: "picker.atMax", values: (n) => ({ count: n, shown: String(n) }), one: { es: "Máximo 1 boleto por persona", en: "Maximum 1 ticket per person" }, two: { es: "Máximo 2 boletos por persona", en: "Maximum 2 tickets per person" } },
  { key: "picker.minNotice", values: (n) => ({ count: n, shown: String(n) }), one: { es: "Compra Mínima: Debes seleccionar al menos 1 boleto.", en: "Minimum purchase: you must select at least 1 ticket." }, two: { es: "Compra Mínima: Debes seleccionar al menos 2 boletos.", en: "Minimum purchase: you must select at least 2 tickets." } },
  { key: "picker.selectedCount", values: (n) => ({ count: n, shown: String(n) }), one: { es: "1 boleto seleccionado", en: "1 ticket selected" }, two: { es: "2 boletos seleccionados", en: "2 tickets selected" } },
  { key: "picker.randomCount", values: (n) => ({ count: n, shown: String(n) }), one: { es: "1 número al azar", en: "1 random number" }, two: { es: "2 números al azar", en: "2 random numbers" } },
  { key: "quickBuy.status", values: (n) => ({ count: n, shown: String(n), total: "US$ 5" }), one: { es: "1 número al azar · US$ 5", en: "1 random number · US$ 5" }, two: { es: "2 números al azar · US$ 5", en: "2 random numbers · US$ 5" } },
  { key: "quickBuy.activeText", values: (n) => ({ count: n }), one: { es: "El sistema elige tu número al confirmar la compra.", en: "The system picks your number when you confirm the purchase." }, two: { es: "El sistema elige tus números al confirmar la compra.", en: "The system picks your numbers when you confirm the purchase." } },
  {
    key: "heldNumbers.text",
    values: (n) => ({ count: n, shown: String(n) }),
    one: { es: "1 número está apartado por una compra que aún espera su comprobante. Si no se pagan a tiempo, vuelven a estar a la venta.", en: "1 number is held by a purchase still waiting for its proof of payment. If they are not paid in time, they go back on sale." },
    two: { es: "2 números están apartados por compras que aún esperan su comprobante. Si no se pagan a tiempo, vuelven a estar a la venta.", en: "2 numbers are held by purchases still waiting for their proof of payment. If they are not paid in time, they go back on sale." },
  },
  { key: "admin.purchases.showing", values: (n) => ({ from: 1, to: n, total: n }), one: { es: "Mostrando 1-1 de 1 compra", en: "Showing 1-1 of 1 purchase" }, two: { es: "Mostrando 1-2 de 2 compras", en: "Showing 1-2 of 2 purchases" } },
];

describe("counted texts", () => {
  for (const locale of ["es", "en"] as const) {
    const t = createTranslator({ locale, messages: MESSAGES[locale] });
    for (const { key, values, one, two } of COUNTED) {
      it(`reads right for 1 and 2 (${locale}: ${key})`, () => {
        expect(t(key as never, values(1) as never)).toBe(one[locale]);
        expect(t(key as never, values(2) as never)).toBe(two[locale]);
      });
    }
  }

  it("no message writes a '(s)' plural by hand", () => {
    for (const messages of [es, en]) expect(JSON.stringify(messages)).not.toMatch(/\(s\)|\(es\)/);
  });

  it("the picker says '1 número disponible', not '1 números'", () => {
    render(
      <NextIntlClientProvider locale="es" messages={es}>
        <TicketPicker available={new Uint32Array([7])} width={4} price="13.00" limits={{ min: 1, max: 1 }} selected={[]} onSelectedChange={() => {}} />
      </NextIntlClientProvider>,
    );
    expect(screen.getByText("1 número disponible")).toBeInTheDocument();
  });
});
