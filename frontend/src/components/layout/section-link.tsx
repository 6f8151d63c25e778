"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";

/** Scroll delays of SPEC §2: 100 ms when already on home, 500 ms after navigating there. */
export const SCROLL_DELAY_ON_HOME = 100;
export const SCROLL_DELAY_FROM_OTHER_PAGE = 500;

export function scrollToSection(id: string): void {
  const element = document.getElementById(id);
  if (!element) return;
  element.scrollIntoView({ behavior: "smooth", block: "start" });
  // Move focus for keyboard and screen-reader users without a second jump.
  if (!element.hasAttribute("tabindex")) element.setAttribute("tabindex", "-1");
  element.focus({ preventScroll: true });
}

/** A link to a home section (#verificar, #faq, …) that works from any page. */
export function SectionLink({
  section,
  children,
  className,
  onNavigate,
}: {
  section: string;
  children: React.ReactNode;
  className?: string;
  onNavigate?: () => void;
}) {
  const pathname = usePathname();
  const router = useRouter();
  return (
    <Link
      href={`/#${section}`}
      className={className}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        onNavigate?.();
        if (pathname === "/") {
          window.history.replaceState(null, "", `#${section}`);
          window.setTimeout(() => scrollToSection(section), SCROLL_DELAY_ON_HOME);
        } else {
          router.push("/");
          window.setTimeout(() => {
            window.history.replaceState(null, "", `#${section}`);
            scrollToSection(section);
          }, SCROLL_DELAY_FROM_OTHER_PAGE);
        }
      }}
    >
      {children}
    </Link>
  );
}
