import { describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import { LinkPending } from "@/components/raffle/link-pending";
import { Intl } from "./intl";

let pending = false;
vi.mock("next/link", () => ({ useLinkStatus: () => ({ pending }) }));

describe("a raffle card being opened", () => {
  it("says nothing while its link is idle", () => {
    pending = false;
    render(<Intl><LinkPending /></Intl>);
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("announces the page loading while the navigation is pending, in the buyer's language", () => {
    pending = true;
    const { unmount } = render(<Intl><LinkPending /></Intl>);
    expect(screen.getByRole("status").textContent).toBe("Cargando...");
    unmount();
    render(<Intl locale="en"><LinkPending /></Intl>);
    expect(screen.getByRole("status").textContent).toBe("Loading...");
  });
});
