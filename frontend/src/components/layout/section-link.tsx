"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";

/** Scroll delays of SPEC §2: 100 ms when already on home, 500 ms after navigating there. */
export const SCROLL_DELAY_ON_HOME = 100;
export const SCROLL_DELAY_FROM_OTHER_PAGE = 500;
/** After that delay, how long to wait for home to render the section (slow data, slow phone). */
export const SECTION_WAIT_MS = 5000;

/**
 * Resolves with the section once the home page shows it: at once when it is there, else on the
 * first DOM change that brings it, or null after `timeoutMs`.
 */
export function waitForSection(id: string, timeoutMs = SECTION_WAIT_MS): Promise<HTMLElement | null> {
  const find = () => (window.location.pathname === "/" ? document.getElementById(id) : null);
  const now = find();
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      const element = find();
      if (element) done(element);
    });
    const timer = window.setTimeout(() => done(null), timeoutMs);
    function done(element: HTMLElement | null) {
      observer.disconnect();
      window.clearTimeout(timer);
      resolve(element);
    }
    observer.observe(document.body, { childList: true, subtree: true });
  });
}

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
          // The spec's delay, then as long as home needs to render the section (bounded).
          window.setTimeout(() => {
            void waitForSection(section).then((element) => {
              if (!element) return;
              window.history.replaceState(null, "", `#${section}`);
              scrollToSection(section);
            });
          }, SCROLL_DELAY_FROM_OTHER_PAGE);
        }
      }}
    >
      {children}
    </Link>
  );
}
