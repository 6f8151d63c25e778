// Issue 31: an operator uploads a photo for a raffle or a prize (or still pastes an address).
import { afterEach, describe, expect, it, vi } from "vitest";
import { useState } from "react";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { PhotoField } from "@/components/admin/photo-field";
import { Intl } from "./intl";

const toast = { success: vi.fn(), error: vi.fn() };
vi.mock("@/lib/notify", () => ({
  notify: { success: (...a: unknown[]) => toast.success(...a), error: (...a: unknown[]) => toast.error(...a), warning: vi.fn(), info: vi.fn() },
}));

afterEach(() => {
  vi.unstubAllGlobals();
  toast.success.mockReset();
  toast.error.mockReset();
});

function Harness({ initial = "" }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return <PhotoField id="image" value={value} onChange={setValue} />;
}

const URL = `/api/photos/${"a".repeat(64)}.jpg`;

describe("the photo field", () => {
  it("sends the chosen file as the request's body and takes the address it is served at", async () => {
    const sent: { url: string; method?: string; type: string | null; body: unknown }[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init: RequestInit = {}) => {
        sent.push({ url, method: init.method, type: new Headers(init.headers).get("Content-Type"), body: init.body });
        return new Response(JSON.stringify({ url: URL }), { status: 201 });
      }),
    );
    render(
      <Intl locale="es">
        <Harness />
      </Intl>,
    );
    const photo = new File([new Uint8Array([0xff, 0xd8, 0xff])], "moto.jpg", { type: "image/jpeg" });

    fireEvent.change(screen.getByTestId("photo-file"), { target: { files: [photo] } });

    await waitFor(() => expect(screen.getByRole("textbox")).toHaveValue(URL));
    expect(sent).toEqual([{ url: "/api/admin/photos", method: "POST", type: "image/jpeg", body: photo }]);
    expect(screen.getByRole("img", { name: "Vista previa de la imagen" })).toHaveAttribute("src", URL);
    expect(toast.success).toHaveBeenCalledWith("Foto subida");
  });

  it("shows the server's refusal in the admin's language and keeps the typed address", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(JSON.stringify({ code: "photo_heif", message: "iPhone HEIC photos cannot be shown on the web." }), { status: 422 })),
    );
    render(
      <Intl locale="en">
        <Harness initial="https://cdn.example/moto.jpg" />
      </Intl>,
    );

    fireEvent.change(screen.getByTestId("photo-file"), { target: { files: [new File(["x"], "IMG_0001.HEIC", { type: "image/heic" })] } });

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("The photo could not be uploaded", { description: "iPhone HEIC photos cannot be shown on the web." }));
    expect(screen.getByRole("textbox")).toHaveValue("https://cdn.example/moto.jpg");
    expect(screen.getByRole("button", { name: "Upload photo" })).toBeEnabled();
  });
});
