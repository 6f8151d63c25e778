import { describe, expect, it } from "vitest";
import es from "../../messages/es.json";
import en from "../../messages/en.json";
import { checkProofFile, purchaseSchema, referenceLength, referenceProblem, type ValidationMessages } from "@/lib/validations/purchase";

const valid = {
  customerName: "Ana Pérez",
  customerId: "V12345678",
  customerEmail: "ana@example.com",
  customerPhone: "0412-123-4567",
  customerCountry: "venezuela" as const,
  paymentMethod: "2",
  paymentProof: null,
  acceptTerms: true,
};

function errorsFor(messages: ValidationMessages, values: Record<string, unknown>) {
  const result = purchaseSchema(messages).safeParse(values);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
}

describe.each([
  ["es", es.validation, {
    customerName: "Nombre debe tener al menos 2 caracteres",
    customerEmail: "Email inválido",
    paymentMethod: "Método de pago requerido",
    acceptTerms: "Debes aceptar los términos",
    customerPhone: "El teléfono debe tener al menos 10 dígitos",
    customerId: "La cédula o pasaporte debe tener al menos 5 caracteres",
  }],
  ["en", en.validation, {
    customerName: "Name must be at least 2 characters",
    customerEmail: "Invalid e-mail",
    paymentMethod: "Payment method required",
    acceptTerms: "You must accept the terms",
    customerPhone: "Phone must have at least 10 digits",
    customerId: "ID or passport must be at least 5 characters",
  }],
])("purchase form messages in %s", (_, messages, expected) => {
  it("accepts a valid form", () => {
    expect(errorsFor(messages, valid)).toEqual({});
  });

  it("shows the spec's message for each broken rule", () => {
    const errors = errorsFor(messages, {
      ...valid,
      customerName: "A",
      customerId: "123",
      customerEmail: "ana@",
      customerPhone: "0412 12",
      paymentMethod: "",
      acceptTerms: false,
    });
    expect(errors).toEqual(expected);
  });

  it("requires a country", () => {
    expect(errorsFor(messages, { ...valid, customerCountry: "" }).customerCountry).toBe(messages.country);
  });

  it("reports a missing proof with the form's other errors when the form requires it", () => {
    const errors = Object.fromEntries(
      (purchaseSchema(messages, { requireProof: true }).safeParse({ ...valid, customerName: "A" }).error?.issues ?? []).map((i) => [
        String(i.path[0]),
        i.message,
      ]),
    );
    expect(errors.paymentProof).toBe(`${messages.proofRequiredTitle} - ${messages.proofRequired}`);
    expect(errors.customerName).toBe(expected.customerName);
    const file = new File(["x"], "a.png", { type: "image/png" });
    expect(purchaseSchema(messages, { requireProof: true }).safeParse({ ...valid, paymentProof: file }).success).toBe(true);
  });

  it("checks the proof file: required, 5 MB, JPG/PNG/GIF/WEBP/PDF, and an iPhone photo told to send a screenshot", () => {
    expect(checkProofFile(null, messages)).toEqual({ title: messages.proofRequiredTitle, message: messages.proofRequired });
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], "a.png", { type: "image/png" });
    expect(checkProofFile(big, messages)?.title).toBe(messages.fileTooBigTitle);
    const doc = new File(["x"], "a.docx", { type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" });
    expect(checkProofFile(doc, messages)?.message).toBe(messages.fileType);
    expect(checkProofFile(new File(["x"], "a.gif", { type: "image/gif" }), messages)).toBeNull();
    expect(checkProofFile(new File(["x"], "Screenshot.webp", { type: "image/webp" }), messages)).toBeNull();
    expect(checkProofFile(new File(["x"], "IMG_0042.HEIC", { type: "image/heic" }), messages)?.message).toBe(messages.fileHeic);
    // Some browsers give a HEIC no type at all: its name tells.
    expect(checkProofFile(new File(["x"], "IMG_0042.heic", { type: "" }), messages)?.message).toBe(messages.fileHeic);
  });
});

it("has the spec's Spanish file messages", () => {
  expect(`${es.validation.proofRequiredTitle} - ${es.validation.proofRequired}`).toBe("Comprobante requerido - Debes subir un comprobante de pago");
  expect(`${es.validation.fileTooBigTitle} - ${es.validation.fileTooBig}`).toBe("Archivo muy grande - El archivo debe ser menor a 5MB");
  expect(`${es.validation.fileTypeTitle} - ${es.validation.fileType}`).toBe(
    "Tipo de archivo no válido - Solo se permiten imágenes (JPG, PNG, GIF, WEBP) y PDFs",
  );
});

describe("the payment reference", () => {
  const strict = { required: true, minLength: 6 };
  const loose = { required: false, minLength: 0 };

  it("judges a reference as the server does", () => {
    expect(referenceProblem("", loose)).toBeNull();
    expect(referenceProblem("   ", strict)).toBe("required");
    expect(referenceProblem("12-3 4.5", strict)).toBe("tooShort"); // 5 letters and digits
    expect(referenceProblem("12-3 4.56", strict)).toBeNull();
    expect(referenceProblem("AB/12#3_4", strict)).toBeNull();
    expect(referenceProblem("123456$", strict)).toBe("invalid");
    expect(referenceProblem("ñandú123", loose)).toBe("invalid");
    expect(referenceProblem("--", loose)).toBe("invalid");
    expect(referenceProblem("1".repeat(41), loose)).toBe("tooLong");
    // A minimum also applies to a reference typed by choice.
    expect(referenceProblem("12", { required: false, minLength: 4 })).toBe("tooShort");
    expect(referenceLength(" 0123-45 ab ")).toBe(8);
  });

  it("puts the method's rules in the schema, with the minimum's own message", () => {
    const m = es.validation;
    const problem = (reference: string | undefined, policy = strict) =>
      purchaseSchema(m, { reference: policy, referenceTooShort: "Al menos 6 letras o números" })
        .safeParse({ ...valid, paymentReference: reference })
        .error?.issues.find((i) => i.path[0] === "paymentReference")?.message;
    expect(problem(undefined)).toBe("Escribe el número de referencia de tu pago");
    expect(problem("123")).toBe("Al menos 6 letras o números");
    expect(problem("123456!")).toBe("Solo letras, números, espacios y - . / # _");
    expect(problem("0123456789")).toBeUndefined();
    expect(problem(undefined, loose)).toBeUndefined();
    expect(purchaseSchema(m).safeParse(valid).success).toBe(true);
  });
});
