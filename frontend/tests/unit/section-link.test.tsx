import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen } from "@testing-library/react";
import {
  SCROLL_DELAY_FROM_OTHER_PAGE,
  SCROLL_DELAY_ON_HOME,
  SECTION_WAIT_MS,
  SectionLink,
} from "@/components/layout/section-link";

const push = vi.fn();
let pathname = "/";
vi.mock("next/navigation", () => ({
  usePathname: () => pathname,
  useRouter: () => ({ push }),
}));

const scrolled: string[] = [];

function addSection(id: string) {
  const section = document.createElement("section");
  section.id = id;
  document.body.appendChild(section);
  return section;
}

beforeEach(() => {
  vi.useFakeTimers();
  scrolled.length = 0;
  push.mockReset();
  // jsdom has no layout: record which element was scrolled into view.
  Element.prototype.scrollIntoView = function (this: Element) {
    scrolled.push(this.id);
  };
  window.history.replaceState(null, "", "/");
});
afterEach(() => {
  vi.useRealTimers();
  document.querySelectorAll("section").forEach((s) => s.remove());
});

/** Lets MutationObserver callbacks and promise continuations run. */
const flush = () => act(async () => {
  await Promise.resolve();
  await Promise.resolve();
});

describe("section links", () => {
  it("on home: scrolls to the section 100 ms after the click and moves focus there", () => {
    pathname = "/";
    const faq = addSection("faq");
    render(<SectionLink section="faq">FAQ</SectionLink>);
    fireEvent.click(screen.getByRole("link", { name: "FAQ" }));
    expect(push).not.toHaveBeenCalled();
    expect(window.location.hash).toBe("#faq");
    act(() => vi.advanceTimersByTime(SCROLL_DELAY_ON_HOME - 1));
    expect(scrolled).toEqual([]);
    act(() => vi.advanceTimersByTime(1));
    expect(scrolled).toEqual(["faq"]);
    expect(document.activeElement).toBe(faq);
    expect(SCROLL_DELAY_ON_HOME).toBe(100);
  });

  it("from another page: goes home and scrolls 500 ms later when home is already there", async () => {
    pathname = "/sorteos";
    window.history.replaceState(null, "", "/sorteos");
    render(<SectionLink section="verificar">Verificar</SectionLink>);
    fireEvent.click(screen.getByRole("link", { name: "Verificar" }));
    expect(push).toHaveBeenCalledWith("/");
    // The router renders home (here: the URL changes and the section appears) within 500 ms.
    window.history.pushState(null, "", "/");
    addSection("verificar");
    act(() => vi.advanceTimersByTime(SCROLL_DELAY_FROM_OTHER_PAGE - 1));
    await flush();
    expect(scrolled).toEqual([]);
    act(() => vi.advanceTimersByTime(1));
    await flush();
    expect(scrolled).toEqual(["verificar"]);
    expect(window.location.hash).toBe("#verificar");
    expect(SCROLL_DELAY_FROM_OTHER_PAGE).toBe(500);
  });

  it("from another page on slow data: waits after the 500 ms for home to render the section", async () => {
    pathname = "/sorteos";
    window.history.replaceState(null, "", "/sorteos");
    render(<SectionLink section="faq">FAQ</SectionLink>);
    fireEvent.click(screen.getByRole("link", { name: "FAQ" }));
    act(() => vi.advanceTimersByTime(SCROLL_DELAY_FROM_OTHER_PAGE + 2000));
    await flush();
    expect(scrolled).toEqual([]);
    // Home arrives 2.5 s after the click.
    window.history.pushState(null, "", "/");
    addSection("faq");
    await flush();
    expect(scrolled).toEqual(["faq"]);
    expect(window.location.hash).toBe("#faq");
  });

  it("gives up when home has not shown the section within the bound", async () => {
    pathname = "/sorteos";
    window.history.replaceState(null, "", "/sorteos");
    render(<SectionLink section="faq">FAQ</SectionLink>);
    fireEvent.click(screen.getByRole("link", { name: "FAQ" }));
    act(() => vi.advanceTimersByTime(SCROLL_DELAY_FROM_OTHER_PAGE + SECTION_WAIT_MS));
    await flush();
    window.history.pushState(null, "", "/");
    addSection("faq");
    await flush();
    expect(scrolled).toEqual([]);
    expect(SECTION_WAIT_MS).toBe(5000);
  });

  it("does not scroll to a same-named element of the page it is leaving", async () => {
    pathname = "/sorteos";
    window.history.replaceState(null, "", "/sorteos");
    addSection("faq");
    render(<SectionLink section="faq">FAQ</SectionLink>);
    fireEvent.click(screen.getByRole("link", { name: "FAQ" }));
    act(() => vi.advanceTimersByTime(SCROLL_DELAY_FROM_OTHER_PAGE));
    await flush();
    expect(scrolled).toEqual([]);
    window.history.pushState(null, "", "/");
    document.body.appendChild(document.createElement("div"));
    await flush();
    expect(scrolled).toEqual(["faq"]);
  });
});
