import { useTranslations } from "next-intl";
import { Building2, CheckCircle2, CreditCard, Smartphone, Wallet, Bitcoin, Zap, Headset } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { PaymentMethod } from "@/lib/api/types";
import { usePaymentDetailLabels } from "@/lib/use-payment-details";

export type MethodCategory = "paypal" | "zelle" | "bank" | "digital" | "crypto" | "mobile" | "other";

/** The card's style and label, by type or by name (SPEC §2 "Payment-methods section"). */
export function methodCategory(method: Pick<PaymentMethod, "type" | "name">): MethodCategory {
  const type = method.type.toLowerCase();
  const name = method.name.toLowerCase();
  if (name.includes("paypal")) return "paypal";
  if (type === "zelle" || name.includes("zelle")) return "zelle";
  if (type === "crypto" || type === "binance" || name.includes("binance") || name.includes("usdt")) return "crypto";
  if (type === "mobile_payment" || type === "mobile" || name.includes("pago móvil") || name.includes("pago movil")) return "mobile";
  if (type === "bank" || type === "bank_transfer" || type === "transfer" || name.includes("banco") || name.includes("bank")) return "bank";
  if (type === "digital") return "digital";
  return "other";
}

const icons: Record<MethodCategory, React.ComponentType<{ className?: string; "aria-hidden"?: boolean }>> = {
  paypal: Wallet,
  zelle: Zap,
  bank: Building2,
  digital: CreditCard,
  crypto: Bitcoin,
  mobile: Smartphone,
  other: CreditCard,
};

const tones: Record<MethodCategory, string> = {
  paypal: "bg-blue-100 text-blue-800",
  zelle: "bg-violet-100 text-violet-800",
  bank: "bg-emerald-100 text-emerald-800",
  digital: "bg-sky-100 text-sky-800",
  crypto: "bg-amber-100 text-amber-800",
  mobile: "bg-rose-100 text-rose-800",
  other: "bg-muted text-foreground",
};

export function MethodIcon({ category, className }: { category: MethodCategory; className?: string }) {
  const Icon = icons[category];
  return (
    <span className={`flex size-11 shrink-0 items-center justify-center rounded-lg ${tones[category]} ${className ?? ""}`}>
      <Icon aria-hidden className="size-5" />
    </span>
  );
}

/** Active payment methods as cards, or the in-configuration message with the support button. */
export function PaymentMethodsSection({ methods, supportUrl }: { methods: PaymentMethod[]; /** The operator's WhatsApp link (branding); blank hides the button. */ supportUrl: string }) {
  const t = useTranslations("payments");
  const detail = usePaymentDetailLabels();
  const active = methods.filter((m) => m.active);
  return (
    <section id="metodos-de-pago" aria-labelledby="payments-title" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-16">
      <div className="mb-8 max-w-2xl">
        <h2 id="payments-title" className="text-2xl font-bold tracking-tight sm:text-3xl">{t("title")}</h2>
        <p className="mt-2 text-muted-foreground">{t("subtitle")}</p>
      </div>
      {active.length === 0 ? (
        <div className="rounded-xl border border-dashed p-8 text-center" data-testid="payments-empty">
          <p className="text-lg font-semibold">{t("emptyTitle")}</p>
          <p className="mx-auto mt-2 max-w-md text-muted-foreground">{t("emptyText")}</p>
          {supportUrl && (
            <Button asChild className="mt-5">
              <a href={supportUrl} target="_blank" rel="noopener noreferrer">
                <Headset aria-hidden />
                {t("contactSupport")}
              </a>
            </Button>
          )}
        </div>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {active.map((method) => {
            const category = methodCategory(method);
            const details = Object.entries(method.details).slice(0, 2);
            return (
              <li key={method.id} className="flex flex-col gap-4 rounded-xl border bg-card p-5 shadow-sm">
                <div className="flex items-start gap-3">
                  <MethodIcon category={category} />
                  <div className="min-w-0 flex-1">
                    <h3 className="font-semibold leading-tight">{method.name}</h3>
                    <p className="text-sm text-muted-foreground">{t(`categories.${category}`)}</p>
                  </div>
                  <Badge variant="success" className="gap-1">
                    <CheckCircle2 aria-hidden />
                    {t("available")}
                  </Badge>
                </div>
                {details.length === 0 ? (
                  <p className="text-sm text-muted-foreground">{t("contactForDetails")}</p>
                ) : (
                  <dl className="space-y-2 text-sm">
                    {details.map(([key, value]) => (
                      <div key={key} className="rounded-md bg-muted/60 px-3 py-2">
                        <dt className="text-xs text-muted-foreground">{detail.label(key)}</dt>
                        <dd className="break-all font-medium">{detail.value(key, value)}</dd>
                      </div>
                    ))}
                  </dl>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
