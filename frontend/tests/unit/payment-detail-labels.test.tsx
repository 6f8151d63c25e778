import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { NextIntlClientProvider } from "next-intl";
import es from "../../messages/es.json";
import en from "../../messages/en.json";
import { knownDetailKey } from "@/lib/payment-methods";
import { usePaymentDetailLabels } from "@/lib/use-payment-details";

function Details({ details }: { details: Record<string, string> }) {
  const { label, value } = usePaymentDetailLabels();
  return (
    <dl>
      {Object.entries(details).map(([k, v]) => (
        <div key={k}>
          <dt>{label(k)}</dt>
          <dd>{value(k, v)}</dd>
        </div>
      ))}
    </dl>
  );
}

describe("payment-method detail labels", () => {
  it("recognise known keys however the operator spelled them", () => {
    expect(knownDetailKey("bankName")).toBe("bankName");
    expect(knownDetailKey("bank_name")).toBe("bankName");
    expect(knownDetailKey("Banco")).toBe("bankName");
    expect(knownDetailKey("teléfono")).toBe("phone");
    expect(knownDetailKey("cedula")).toBe("idNumber");
    expect(knownDetailKey("payId")).toBeNull();
  });

  it("show Spanish labels on the Spanish site, not 'Bank name'", () => {
    render(
      <NextIntlClientProvider locale="es" messages={es}>
        <Details details={{ bankName: "Banesco", accountNumber: "0134", accountType: "ahorro" }} />
      </NextIntlClientProvider>,
    );
    expect(screen.getByText("Banco")).toBeInTheDocument();
    expect(screen.getByText("Número de cuenta")).toBeInTheDocument();
    expect(screen.getByText("Ahorro")).toBeInTheDocument();
    expect(screen.queryByText("Bank name")).toBeNull();
  });

  it("show English labels on the English site for keys written in Spanish", () => {
    render(
      <NextIntlClientProvider locale="en" messages={en}>
        <Details details={{ banco: "Banesco (0134)", titular: "Rifa LLC", accountType: "corriente" }} />
      </NextIntlClientProvider>,
    );
    expect(screen.getByText("Bank")).toBeInTheDocument();
    expect(screen.getByText("Account holder")).toBeInTheDocument();
    expect(screen.getByText("Checking")).toBeInTheDocument();
  });
});
