import type { Locale } from "@/lib/i18n/config";

/** Legal pages, written from the policies of SPEC §1; dated 26/07/2025. */
export type LegalSlug = "terminos-y-condiciones" | "politica-de-privacidad" | "politica-de-reembolso" | "juego-responsable";

export interface LegalPage {
  title: string;
  intro: string;
  sections: { heading: string; paragraphs: string[] }[];
}

export const LEGAL_SLUGS: LegalSlug[] = ["terminos-y-condiciones", "politica-de-privacidad", "politica-de-reembolso", "juego-responsable"];

const es: Record<LegalSlug, LegalPage> = {
  "terminos-y-condiciones": {
    title: "Términos y condiciones",
    intro:
      "Estos términos regulan tu participación en los sorteos publicados en este sitio. Al comprar un boleto declaras que los has leído y los aceptas.",
    sections: [
      {
        heading: "1. Naturaleza del servicio",
        paragraphs: [
          "Ofrecemos sorteos en línea como actividad de entretenimiento. No somos un casino: no hay apuestas contra la casa ni juegos de azar continuos. Cada sorteo tiene una cantidad fija de números, un premio descrito en su página y una fecha de sorteo.",
        ],
      },
      {
        heading: "2. Quién puede participar",
        paragraphs: [
          "Solo pueden participar personas mayores de 18 años con capacidad legal para contratar. Podemos pedirte un documento de identidad o pasaporte para confirmar tu edad y tu identidad antes de entregar un premio.",
          "Es tu responsabilidad verificar que participar está permitido en tu país de residencia.",
        ],
      },
      {
        heading: "3. Compra de boletos",
        paragraphs: [
          "Eliges tus números en la página del sorteo, completas tus datos, seleccionas un método de pago y subes el comprobante. Cada sorteo fija un mínimo y un máximo de boletos por compra; como regla general la compra mínima es de 2 boletos, pero prevalece el límite indicado en cada sorteo.",
          "Los precios están expresados en dólares estadounidenses (USD). Los montos en otras monedas son conversiones informativas según la tasa publicada para cada método de pago.",
          "Tus números quedan reservados mientras verificamos el pago. Si el pago no se puede verificar, la compra se rechaza y los números vuelven a estar disponibles.",
        ],
      },
      {
        heading: "4. Boletos personales",
        paragraphs: [
          "Los boletos son personales e intransferibles. El premio se entrega únicamente a la persona cuyos datos figuran en la compra aprobada.",
        ],
      },
      {
        heading: "5. Determinación de los ganadores",
        paragraphs: [
          "El número ganador se determina con los resultados oficiales de la lotería indicada para cada sorteo, en su fecha de sorteo. Solo participan los boletos de compras con pago aprobado.",
          "Comunicamos los resultados por correo electrónico, por aplicación de mensajería, en nuestras redes sociales y en este sitio web.",
        ],
      },
      {
        heading: "6. Reclamo y entrega de premios",
        paragraphs: [
          "El ganador dispone de 30 días desde la fecha del sorteo para reclamar su premio. Vencido ese plazo sin reclamo, el premio se considera renunciado.",
        ],
      },
      {
        heading: "7. Compras definitivas",
        paragraphs: [
          "Todas las compras son definitivas. Solo se reintegra el monto pagado si un sorteo se cancela por completo, según se describe en la política de reembolso.",
        ],
      },
      {
        heading: "8. Cambios",
        paragraphs: [
          "Podemos actualizar estos términos. La fecha de la última actualización figura en esta página; las compras ya realizadas se rigen por los términos vigentes al momento de la compra.",
        ],
      },
    ],
  },
  "politica-de-privacidad": {
    title: "Política de privacidad",
    intro: "Esta política explica qué datos personales recogemos cuando compras un boleto y cómo los usamos y protegemos.",
    sections: [
      {
        heading: "1. Datos que recogemos",
        paragraphs: [
          "Nombre, documento de identidad o pasaporte, correo electrónico, teléfono, país, el método de pago elegido y el comprobante de pago que subes. También registramos los números comprados, los montos y las fechas.",
        ],
      },
      {
        heading: "2. Para qué los usamos",
        paragraphs: [
          "Para registrar y verificar tus compras, enviarte confirmaciones por correo (al registrar la compra y cuando se aprueba o rechaza), permitirte consultar tus boletos y contactarte si ganas. No usamos tus datos con fines publicitarios ni los vendemos.",
        ],
      },
      {
        heading: "3. Consulta pública de boletos",
        paragraphs: [
          "La verificación de boletos muestra completo solo el dato que escribes (correo o teléfono); el otro dato aparece enmascarado y tu nombre abreviado. Limitamos la cantidad de consultas para evitar abusos.",
        ],
      },
      {
        heading: "4. Conservación y seguridad",
        paragraphs: [
          "Guardamos tus datos mientras sean necesarios para gestionar el sorteo, entregar premios y cumplir obligaciones legales. El acceso está restringido a administradores autenticados, y las comunicaciones con el sitio viajan cifradas.",
        ],
      },
      {
        heading: "5. Tus derechos",
        paragraphs: [
          "Puedes pedirnos acceso, corrección o eliminación de tus datos escribiendo a nuestro correo de contacto. Algunas informaciones deben conservarse mientras haya un sorteo en curso o una obligación legal pendiente.",
        ],
      },
      {
        heading: "6. Almacenamiento local",
        paragraphs: [
          "El sitio guarda en tu navegador el idioma elegido. No usamos cookies de publicidad ni de seguimiento de terceros.",
        ],
      },
    ],
  },
  "politica-de-reembolso": {
    title: "Política de reembolso",
    intro: "Lee esta política antes de comprar: explica por qué las compras no admiten reembolso y cuál es la única excepción.",
    sections: [
      {
        heading: "1. Compras definitivas",
        paragraphs: [
          "Todas las compras son definitivas y no admiten reembolso: al reservar tus números, esos números dejan de estar disponibles para otras personas. No hay reembolsos por cambio de opinión, por error en la elección de números ni por no resultar ganador.",
        ],
      },
      {
        heading: "2. Única excepción: sorteo cancelado",
        paragraphs: [
          "Si un sorteo se cancela por completo, devolvemos el monto pagado por las compras aprobadas de ese sorteo, por el mismo método de pago o uno equivalente acordado contigo.",
          "Un sorteo pospuesto no se considera cancelado: tus boletos siguen participando en la nueva fecha.",
        ],
      },
      {
        heading: "3. Pagos no verificados",
        paragraphs: [
          "Si no podemos verificar tu pago, la compra se rechaza y te lo comunicamos por correo. Si hubo un pago real que no pudimos identificar, escríbenos con tu referencia para resolverlo.",
        ],
      },
      {
        heading: "4. Boletos intransferibles",
        paragraphs: ["Los boletos no se pueden transferir ni canjear por dinero."],
      },
    ],
  },
  "juego-responsable": {
    title: "Juego responsable",
    intro: "Nuestros sorteos son entretenimiento. Queremos que sigan siéndolo.",
    sections: [
      {
        heading: "1. Solo para adultos",
        paragraphs: ["Solo pueden participar personas mayores de 18 años. Si detectamos una compra de un menor, la rechazamos."],
      },
      {
        heading: "2. Juega con lo que puedes gastar",
        paragraphs: [
          "Compra solo los boletos que puedas pagar sin afectar tus gastos básicos. Participar no es una forma de ganar dinero ni de resolver problemas económicos.",
          "Cada sorteo limita la cantidad de boletos por compra para ayudarte a mantener un gasto moderado.",
        ],
      },
      {
        heading: "3. Señales de alerta",
        paragraphs: [
          "Gastar más de lo previsto, pedir dinero prestado para participar, ocultar tus compras o sentir ansiedad por los resultados son señales de que conviene hacer una pausa.",
        ],
      },
      {
        heading: "4. Pide ayuda",
        paragraphs: [
          "Si sientes que pierdes el control, escríbenos y dejaremos de aceptar tus compras. Busca también apoyo profesional en los servicios de ayuda de tu país.",
        ],
      },
    ],
  },
};

const en: Record<LegalSlug, LegalPage> = {
  "terminos-y-condiciones": {
    title: "Terms and conditions",
    intro: "These terms govern your participation in the raffles published on this site. By buying a ticket you declare that you have read and accept them.",
    sections: [
      { heading: "1. Nature of the service", paragraphs: ["We run online raffles as entertainment. We are not a casino: there are no bets against the house and no continuous games of chance. Each raffle has a fixed number of tickets, a prize described on its page and a draw date."] },
      { heading: "2. Who may take part", paragraphs: ["Only adults over 18 with legal capacity may take part. We may ask for an ID card or passport to confirm your age and identity before handing over a prize.", "It is your responsibility to check that taking part is allowed in your country of residence."] },
      { heading: "3. Buying tickets", paragraphs: ["You pick your numbers on the raffle's page, fill in your details, choose a payment method and upload the proof. Each raffle sets a minimum and a maximum of tickets per purchase; as a general rule the minimum purchase is 2 tickets, but the limit shown on each raffle prevails.", "Prices are in US dollars (USD). Amounts in other currencies are conversions for information at the rate published for each payment method.", "Your numbers are held while we check the payment. If the payment cannot be verified, the purchase is rejected and the numbers become available again."] },
      { heading: "4. Personal tickets", paragraphs: ["Tickets are personal and cannot be transferred. The prize is handed only to the person whose details are on the approved purchase."] },
      { heading: "5. How winners are determined", paragraphs: ["The winning number is determined by the official results of the lottery named for each raffle, on its draw date. Only tickets of purchases with an approved payment take part.", "We announce results by e-mail, by messaging app, on our social media and on this website."] },
      { heading: "6. Claiming prizes", paragraphs: ["The winner has 30 days from the draw date to claim the prize. If it is not claimed within that period, the prize is forfeited."] },
      { heading: "7. Final purchases", paragraphs: ["All purchases are final. The amount paid is returned only if a raffle is cancelled entirely, as described in the refund policy."] },
      { heading: "8. Changes", paragraphs: ["We may update these terms. The date of the last update is shown on this page; purchases already made are governed by the terms in force when they were made."] },
    ],
  },
  "politica-de-privacidad": {
    title: "Privacy policy",
    intro: "This policy explains which personal data we collect when you buy a ticket and how we use and protect it.",
    sections: [
      { heading: "1. Data we collect", paragraphs: ["Name, ID card or passport, e-mail, phone, country, the payment method chosen and the proof of payment you upload. We also record the numbers bought, the amounts and the dates."] },
      { heading: "2. What we use it for", paragraphs: ["To register and verify your purchases, send you confirmations by e-mail (when the purchase is registered and when it is approved or rejected), let you check your tickets and contact you if you win. We never use your data for advertising nor sell it."] },
      { heading: "3. Public ticket check", paragraphs: ["The ticket check shows in full only what you type (e-mail or phone); the other contact is masked and your name shortened. We limit the number of lookups to prevent abuse."] },
      { heading: "4. Retention and security", paragraphs: ["We keep your data as long as needed to run the raffle, hand over prizes and meet legal duties. Access is limited to authenticated administrators, and traffic with the site is encrypted."] },
      { heading: "5. Your rights", paragraphs: ["You may ask us for access to, correction or deletion of your data by writing to our contact e-mail. Some information must be kept while a raffle is running or a legal duty is pending."] },
      { heading: "6. Local storage", paragraphs: ["The site stores the language you chose in your browser. We use no third-party advertising or tracking cookies."] },
    ],
  },
  "politica-de-reembolso": {
    title: "Refund policy",
    intro: "Read this policy before buying: it explains why purchases are not refundable and the one exception.",
    sections: [
      { heading: "1. Final purchases", paragraphs: ["All purchases are final and not refundable: once your numbers are held, nobody else can buy them. There are no refunds for a change of mind, for choosing the wrong numbers or for not winning."] },
      { heading: "2. The one exception: a cancelled raffle", paragraphs: ["If a raffle is cancelled entirely, we return the amount paid for the approved purchases of that raffle, by the same payment method or an equivalent one agreed with you.", "A postponed raffle is not cancelled: your tickets take part on the new date."] },
      { heading: "3. Payments not verified", paragraphs: ["If we cannot verify your payment, the purchase is rejected and we tell you by e-mail. If a real payment could not be matched, write to us with your reference to sort it out."] },
      { heading: "4. Tickets cannot be transferred", paragraphs: ["Tickets cannot be transferred or exchanged for money."] },
    ],
  },
  "juego-responsable": {
    title: "Responsible gaming",
    intro: "Our raffles are entertainment. We want them to stay that way.",
    sections: [
      { heading: "1. Adults only", paragraphs: ["Only adults over 18 may take part. If we detect a purchase by a minor, we reject it."] },
      { heading: "2. Play with what you can afford", paragraphs: ["Buy only the tickets you can pay for without affecting your basic expenses. Taking part is not a way to earn money or solve financial problems.", "Each raffle limits the tickets per purchase to help you keep spending moderate."] },
      { heading: "3. Warning signs", paragraphs: ["Spending more than planned, borrowing money to take part, hiding your purchases or feeling anxious about results are signs that it is time for a break."] },
      { heading: "4. Ask for help", paragraphs: ["If you feel you are losing control, write to us and we will stop accepting your purchases. Also look for professional support from the help services of your country."] },
    ],
  },
};

export function legalPage(slug: LegalSlug, locale: Locale): LegalPage {
  return (locale === "en" ? en : es)[slug];
}
