"use client";

import { useState } from "react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { LayoutDashboard, Menu, Ticket } from "lucide-react";
import { Button } from "@/components/ui/button";
import dynamic from "next/dynamic";

// The drawer (Radix dialog) loads on the first tap of the menu button, not with the page.
const MobileDrawer = dynamic(() => import("./mobile-drawer").then((m) => m.MobileDrawer), { ssr: false });
import { LanguageToggle } from "./language-toggle";
import { SectionLink } from "./section-link";
import { useIsAdmin } from "@/lib/auth/session";
import { cn } from "@/lib/utils";

type NavItem =
  | { kind: "page"; href: string; label: string; icon?: React.ReactNode }
  | { kind: "section"; section: string; label: string };

function useNavItems(): NavItem[] {
  const t = useTranslations("header");
  const isAdmin = useIsAdmin();
  const items: NavItem[] = [{ kind: "page", href: "/sorteos", label: t("raffles") }];
  // Admins do not see the how-to and FAQ links; they get the dashboard and the client view.
  if (!isAdmin) items.push({ kind: "section", section: "como-ser-un-ganador", label: t("howToWin") });
  items.push({ kind: "section", section: "verificar", label: t("verify") });
  if (!isAdmin) items.push({ kind: "section", section: "faq", label: t("faq") });
  if (isAdmin) {
    items.push({ kind: "page", href: "/admin/dashboard", label: t("dashboard"), icon: <LayoutDashboard aria-hidden className="size-4" /> });
    items.push({ kind: "page", href: "/", label: t("clientView") });
  }
  return items;
}

function NavLinks({ className, linkClassName, onNavigate }: { className?: string; linkClassName?: string; onNavigate?: () => void }) {
  const items = useNavItems();
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item.kind === "page" ? item.href + item.label : item.section}>
          {item.kind === "page" ? (
            <Link href={item.href} className={linkClassName} onClick={onNavigate}>
              {item.icon}
              {item.label}
            </Link>
          ) : (
            <SectionLink section={item.section} className={linkClassName} onNavigate={onNavigate}>
              {item.label}
            </SectionLink>
          )}
        </li>
      ))}
    </ul>
  );
}

export function Brand({ companyName, logoUrl }: { companyName: string; logoUrl: string }) {
  return (
    <Link href="/" className="flex min-w-0 items-center gap-2 rounded-md font-bold outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
      {logoUrl ? (
        <img src={logoUrl} alt="" width={32} height={32} className="size-8 rounded-md object-contain" />
      ) : (
        <span className="flex size-8 items-center justify-center rounded-md bg-primary text-primary-foreground">
          <Ticket aria-hidden className="size-4" />
        </span>
      )}
      <span className="truncate text-lg">{companyName}</span>
    </Link>
  );
}

export function SiteHeader({ companyName, logoUrl }: { companyName: string; logoUrl: string }) {
  const t = useTranslations("header");
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const link =
    "inline-flex items-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium text-foreground/80 outline-none hover:bg-accent hover:text-accent-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50";
  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4">
        <Brand companyName={companyName} logoUrl={logoUrl} />
        <nav aria-label={t("mainNav")} className="hidden md:block">
          <NavLinks className="flex items-center gap-1" linkClassName={link} />
        </nav>
        <div className="flex items-center gap-2">
          <LanguageToggle />
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-label={t("menu")}
            aria-haspopup="dialog"
            aria-expanded={open}
            onClick={() => {
              setLoaded(true);
              setOpen(true);
            }}
          >
            <Menu aria-hidden className="size-6" />
          </Button>
          {loaded && (
            <MobileDrawer open={open} onOpenChange={setOpen} title={t("menuTitle")} description={companyName}>
              <nav aria-label={t("mainNav")}>
                <NavLinks
                  className="flex flex-col gap-1"
                  linkClassName={cn(link, "w-full py-3 text-base")}
                  onNavigate={() => setOpen(false)}
                />
              </nav>
            </MobileDrawer>
          )}
        </div>
      </div>
    </header>
  );
}
