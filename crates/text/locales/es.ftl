# Rifa's server texts in Spanish, the product's language (../shared/SPEC.md): keep each wording
# as the spec writes it. Keys are the stable codes the API returns (`code`), `field-<code>` for a
# field's error, and `receipt-`, `mail-`, `country-` for what receipts and e-mails say.
# en.ftl has the same keys with the same variables (docs/decisions/0014-one-text-catalogue.md).

## Errors, by the API's `code`

validation_failed = Revisa los campos marcados
not_found = No encontrado
route_not_found = Ruta no encontrada
raffle_not_found = Sorteo no encontrado
purchase_not_found = Compra no encontrada
bad_request = La solicitud no es válida
payload_too_large = La solicitud es demasiado grande
unsupported_media_type = Se esperaba { $expected }
rate_limited = Demasiados intentos. Espera { $seconds } { $seconds ->
        [1] segundo
       *[other] segundos
    } e inténtalo de nuevo.
request_timeout = La solicitud tardó demasiado en llegar. Revisa tu conexión e inténtalo de nuevo.
receipt_being_rendered = Ya estamos generando este comprobante. Espera { $seconds } segundos e inténtalo de nuevo.
email_test_failed = No se pudo enviar el correo de prueba: { $detail }
forbidden = Tu rol ({ $role ->
        [owner] dueño
        [manager] encargado
        [reviewer] revisor
       *[catalogue] catálogo
    }) no permite { $permission ->
        [purchases] ver ni revisar compras
        [reports] ver las cifras de ventas
        [catalogue] cambiar sorteos, métodos de pago ni tasas
        [draws] hacer sorteos ni entregar premios
        [settings] cambiar la configuración ni el correo
        [staff] gestionar el equipo
       *[audit] ver el registro de actividad
    }. Pídeselo a un dueño de la cuenta.
password_change_required = Elige tu propia contraseña antes de continuar: la que tienes te la dio otra persona.
username_taken = Ese nombre de usuario ya existe
staff_not_found = Esa cuenta del equipo no existe
not_an_owner = Ya no eres dueño: otro dueño cambió tu rol o desactivó tu cuenta hace un momento.
own_account = No puedes quitarte tu propio rol de dueño, desactivar tu cuenta ni restablecer tu propia contraseña: pídeselo a otro dueño o usa «Cambiar contraseña».
service_unavailable = El servicio no está disponible en este momento. Inténtalo de nuevo en unos segundos.
internal_error = Ocurrió un error inesperado. Inténtalo de nuevo.
max_below_held_number = No puedes reducir el máximo de boletos: el boleto { $highest_held } ya está vendido o reservado
raffle_has_purchases = Este sorteo tiene { $count } compra(s) y no se puede eliminar; cambia su estado a finalizado
raffle_size_locked = La cantidad de boletos no puede cambiar: la rifa ya tiene compras, y su tamaño decide cómo se lee el número ganador. Para otro tamaño, crea una nueva rifa.
raffle_not_on_sale = Sorteo No Disponible - Este sorteo ha finalizado o no está disponible en este momento.
total_mismatch = El total enviado (US$ { $sent }) no coincide con el precio actual (US$ { $expected }). Actualiza la página e inténtalo de nuevo.
tickets_taken = Estos boletos ya no están disponibles: { $numbers }. Elige otros y vuelve a intentarlo.
too_few_left = { $available ->
        [0] Ya no quedan números disponibles en este sorteo.
        [one] Solo queda 1 número disponible en este sorteo: pide 1 o elígelo en la lista.
       *[other] Solo quedan { $available } números disponibles en este sorteo: pide { $available } o menos.
    }
payment_reference_used = Este número de referencia ya fue usado en otra compra con este método de pago. Revisa el número en tu comprobante: cada pago sirve para una sola compra.
random_draw_contended = Muchas personas están comprando en este momento y los números sorteados para ti se vendieron antes de confirmar. Inténtalo de nuevo.
sales_closed = Compras Cerradas - Las compras de este sorteo ya cerraron.
hold_expired = El plazo para enviar el comprobante de esta compra terminó y sus números volvieron a la venta. Si ya pagaste, escríbenos con tu referencia: podemos reabrirla si los números siguen libres.
numbers_no_longer_free = No se puede reabrir: estos números ya no están libres: { $numbers }
purchase_not_expired = Solo se pueden reabrir compras expiradas
# The verifiable draw (decision 0020).
draw_rules_locked = Los premios y las reglas del sorteo no pueden cambiar: esta rifa ya tiene compras. Para otras reglas, crea una nueva rifa.
draw_on_sale_needs_prize = Este sorteo está a la venta y necesita al menos un premio. Para quitarlos todos, pásalo primero a «Inactivo».
raffle_kept_unpublished_without_prize = Guardado sin publicar: un sorteo sale a la venta solo con su primer premio y la fuente pública de su resultado. Agrégalos en «Premios» y vuelve a ponerlo en «Activo».
draw_sales_still_open = Las ventas de esta rifa siguen abiertas: la lista de números se congela cuando cierran.
draw_purchases_pending = { $count ->
        [one] Hay 1 compra pendiente: apruébala o recházala antes de congelar la lista de números.
       *[other] Hay { $count } compras pendientes: apruébalas o recházalas antes de congelar la lista de números.
    }
draw_no_prizes = Agrega al menos un premio con su fuente de resultado antes de congelar la lista de números.
draw_nothing_sold = Esta rifa no tiene ningún número vendido y aprobado: no hay nada que sortear.
draw_already_frozen = La lista de números de esta rifa ya está congelada.
draw_not_frozen = La lista de números de esta rifa todavía no está congelada: se publica cuando cierran las ventas.
draw_ledger_frozen = La lista de números de esta rifa ya está congelada para el sorteo: sus compras no pueden cambiar.
prize_not_found = Premio no encontrado
prize_already_drawn = Este premio ya fue sorteado; un resultado registrado no se puede cambiar.
prize_wrong_source = Este premio se sortea con otra fuente de resultado que la enviada.
prize_not_drawn = Este premio todavía no fue sorteado.
prize_already_delivered = Este premio ya fue marcado como entregado.
draw_beacon_round_too_early = El premio { $position } se sortea con la ronda { $round } de drand, que se publica antes de congelar la lista: elige una ronda posterior al cierre de ventas (con otras reglas, en una nueva rifa si ya hay compras).
draw_source_before_freeze = El premio { $position } se sortea con una lotería que juega el { $drawsAtLocal } (su hora local), antes de congelar la lista o a menos de 10 minutos: su resultado se conocería antes. Elige un sorteo posterior (en una nueva rifa si ya hay compras).
prize_source_not_drawn_yet = La lotería de este premio juega el { $drawsAtLocal } (su hora local): todavía no hay resultado que registrar.
prize_source_deadline_passed = El plazo para registrar el resultado de esta lotería venció el { $deadlineLocal } (su hora local): según las reglas publicadas, el premio lo decide la ronda { $round } de drand.
prize_result_already_recorded = El resultado de esta fuente ya está registrado; un resultado registrado no se puede cambiar.
beacon_round_not_yet = La ronda { $round } de drand todavía no se ha publicado.
beacon_unavailable = No se pudo obtener la ronda de drand en este momento. Inténtalo más tarde o pega su firma.
beacon_signature_invalid = La firma no es la de la ronda { $round } de drand.
# A proof sent for a purchase already decided.
purchase_not_pending-proof = Esta compra ya fue revisada; no admite un nuevo comprobante
# A decision on a purchase already decided.
purchase_not_pending-decision = Esta compra ya está { $status ->
        [pending] pendiente
        [approved] aprobada
        [rejected] rechazada
        [expired] expirada
       *[test] marcada como prueba
    }; solo se pueden aprobar o rechazar compras pendientes
too_many_uploads = Ya se pidieron demasiadas cargas de comprobante para esta compra; escríbenos y te ayudamos
proof_missing = Comprobante requerido - Debes subir un comprobante de pago
proof_too_large = Archivo muy grande - El archivo debe ser menor a 5MB
proof_wrong_type = Tipo de archivo no válido - Solo se permiten imágenes (JPG, PNG, GIF, WEBP) y PDFs
proof_heif = Las fotos HEIC del iPhone no se pueden revisar aquí. Toma una captura de pantalla del comprobante (se guarda como PNG) y envía esa imagen.
photo_too_large = La foto es demasiado grande: debe pesar menos de { $maxMegabytes } MB.
photo_not_a_picture = Ese archivo no es una foto: sube una imagen JPG, PNG, GIF o WEBP.
photo_heif = Las fotos HEIC del iPhone no se pueden mostrar en la web. Compártela como JPG (o haz una captura de pantalla) y súbela de nuevo.
photo_too_many_pixels = La foto tiene demasiados píxeles (más de { $megapixels } megapíxeles): redúcela y súbela de nuevo.
photo_unreadable = La foto está dañada o incompleta y no se puede leer: súbela de nuevo.
proof_type_mismatch = Tipo de archivo no válido - El archivo es un { $actual } pero se envió como { $declared }; guárdalo con la extensión .{ $extension } y súbelo de nuevo
proof_unreadable = Archivo dañado - El archivo no es un { $kind } válido; ábrelo para comprobarlo y súbelo de nuevo
proof_too_many_pixels = Imagen muy grande - La imagen mide { $width }×{ $height } píxeles; debe tener como máximo 40 megapíxeles
upload_url_invalid = El enlace de carga no es válido o expiró; vuelve a intentarlo
upload_size_mismatch = El archivo no tiene el tamaño indicado al pedir el enlace; vuelve a intentarlo
upload_url_used = Este enlace de carga ya se usó
no_tickets_found = No se encontraron boletos para este email/teléfono
no_active_tickets = No tienes boletos en sorteos activos en este momento.
missing_fields = Por favor completa todos los campos
invalid_credentials = Credenciales inválidas
unauthorized = Inicia sesión para continuar
token_expired = Tu sesión expiró; inicia sesión de nuevo
token_invalid = Sesión no válida; inicia sesión de nuevo
session_ended = Tu sesión terminó (se cerró en este u otro dispositivo); inicia sesión de nuevo
exchange_rate_pair_taken = Ya existe la tasa { $from } → { $to } (n.º { $id }: 1 { $from } = { $rate } { $to }). Cada par de monedas tiene una sola tasa: edita esa.

## Field errors, by the field error's code

field-required = Este campo es obligatorio
field-invalid_characters = Contiene caracteres no permitidos
field-too_short = Debe tener al menos { $min } caracteres
field-too_long = Debe tener como máximo { $max } caracteres
field-name_too_short = Nombre debe tener al menos 2 caracteres
field-name_not_plain = El nombre solo puede tener letras, números, espacios y . , ' -, sin enlaces ni etiquetas
field-invalid_email = Email inválido
field-phone_too_short = El teléfono debe tener al menos 10 dígitos
field-payment_method_required = Método de pago requerido
field-payment_method_unavailable = Este método de pago no está disponible
field-terms_not_accepted = Debes aceptar los términos
field-not_a_number = Debe ser un número
field-out_of_range = Debe estar entre { $min } y { $max }
field-too_many_decimals = Como máximo { $max } decimales
field-unknown_option = Valor no válido; opciones: { $allowed }
field-invalid_date = Fecha no válida
field-date_before = Debe ser después de { $min }
field-invalid_url = URL no válida
field-invalid_hsl = Color no válido; usa el formato HSL "240 9% 3.9%"
field-tickets_empty = Debes seleccionar al menos 1 boleto
field-tickets_below_minimum = Compra Mínima: Debes seleccionar al menos { $min } boleto(s).
field-tickets_above_maximum = Límite de Boletos: Solo puedes comprar máximo { $max } boletos en esta compra.
# The spec's words, then what this buyer already holds in the raffle.
field-per_person_limit = Solo puedes comprar { $max } boleto(s) por persona. { $used ->
        [0] Elige como máximo { $max }.
        [1] Ya tienes 1 boleto en este sorteo.
       *[other] Ya tienes { $used } boletos en este sorteo.
    }
field-ticket_out_of_range = El boleto { $number } no existe en este sorteo (1 a { $max })
field-ticket_repeated = El boleto { $number } está repetido
field-numbers_and_random_count = Elige tus números o pide números al azar, no las dos cosas
field-min_above_max = El mínimo por compra no puede superar el máximo por compra
# The estimator's reasons are English words: the Spanish text gives its own advice instead.
field-weak_password = Contraseña demasiado fácil de adivinar: usa una frase larga de palabras poco comunes, sin nombres, fechas, repeticiones ni secuencias de teclado
field-notes_required_to_reject = Debes indicar el motivo del rechazo en las notas
field-lookup_value_required = Debes ingresar un valor para verificar
field-same_currency = Las monedas de origen y destino deben ser distintas
field-wrong_current_password = La contraseña actual no es correcta
field-same_as_current_password = La nueva contraseña debe ser distinta de la actual

## The draw's rule, step by step, and a check of a published draw (certificate, verify-draw)
draw-step-last-digits = El resultado { $result } termina en { $used } (sus últimos { $digits } dígitos): sale el número { $number }.
draw-step-beacon = La ronda { $round } de drand dio el azar { $randomness }; sus primeros 8 bytes, divididos entre { $max }, dejan un resto que, más 1, es el número { $number }.
draw-step-not-in-raffle = El número { $number } no existe en esta rifa (va del 1 al { $max }): se busca hacia arriba.
draw-step-not-sold = El número { $number } no se vendió: gana el siguiente número vendido hacia arriba, el { $next }.
draw-step-already-won = El número { $number } ya ganó un premio anterior: gana el siguiente número vendido hacia arriba, el { $next }.
draw-step-wrapped-around = Después del último número vendido, la búsqueda siguió desde el primero.
draw-step-wins = Gana el número { $number }.
draw-step-no-winner = No queda ningún número vendido que pueda ganar: el premio queda sin ganador.
draw-step-digits = El resultado { $result } se lee por sus últimos { $digits } dígitos: { $used }.
draw-step-beacon-randomness = La ronda { $round } de drand dio el azar { $randomness }, leído como un número de 256 bits.
draw-step-names = El resultado nombra el número { $number }.
draw-step-outside-raffle = El número { $number } no existe en esta rifa (va del 1 al { $max }).
draw-step-not-sold-next-source = El número { $number } no se vendió.
draw-step-already-won-next-source = El número { $number } ya ganó un premio anterior.
draw-step-incomplete-round = El número leído cae en la última vuelta incompleta de { $count }: contarlo daría ventaja a algunos números.
draw-step-in-play = { $count ->
        [one] Queda 1 número vendido en juego.
       *[other] Quedan { $count } números vendidos en juego, ordenados de menor a mayor.
    }
draw-step-place = El número leído, dividido entre { $count }, deja resto { $remainder }: gana el que está en el lugar { $place } de esa lista, el { $number }.
draw-step-next-source = Este resultado no da ganador: decide la siguiente fuente publicada de este premio.
draw-step-rehashed = Para no dar ventaja a nadie, se toma el SHA-256 de ese valor, { $randomness }, y se lee de nuevo.
draw-step-source-lapsed = { $source ->
    [0] El resultado de la lotería
   *[other] El resultado de la fuente { $source }
} no se registró antes del plazo ({ $deadline }): decide la siguiente fuente publicada de este premio.
draw-check-not-sorted = La lista no está ordenada: el número en la posición { $index } no es mayor que el anterior.
draw-check-not-in-raffle = La lista tiene el número { $number }, que no existe en una rifa del 1 al { $max }.
draw-check-root-matches = { $size ->
        [one] La huella de la lista (1 número vendido) coincide con la publicada al cerrar las ventas.
       *[other] La huella de la lista ({ $size } números vendidos) coincide con la publicada al cerrar las ventas.
    }
draw-check-size-differs = El tamaño publicado ({ $published }) no coincide con los números de la lista ({ $entries }).
draw-check-root-differs = La huella de la lista NO coincide con la publicada: calculada { $computed }.
draw-check-winner-confirmed = Premio { $position }: el resultado y la regla dan el número { $winner }, el publicado.
draw-check-winner-differs = Premio { $position }: el resultado y la regla dan el número { $computed }, pero se publicó { $published }.
draw-check-result-unreadable = Premio { $position }: el resultado publicado no se puede leer como número.
draw-check-not-drawn = Premio { $position }: todavía no se sorteó.
draw-check-beacon-invalid = Premio { $position }: la firma de drand no corresponde a la ronda o no da el azar usado.
draw-check-beacon-round-differs = Premio { $position }: se anunció la ronda { $announced } de drand, pero se usó la { $used }.
draw-check-title = Verificación del sorteo «{ $raffle }» (huella publicada { $root })
draw-check-reference-found = La referencia { $reference } tiene { $count ->
        [one] 1 número en la lista: { $numbers }; su prueba de inclusión lleva a la huella publicada.
       *[other] { $count } números en la lista: { $numbers }; la prueba de inclusión de cada uno lleva a la huella publicada.
    }
draw-check-reference-unproven = La referencia { $reference } tiene números en la lista ({ $numbers }), pero su prueba de inclusión NO lleva a la huella publicada.
draw-check-reference-none = La referencia { $reference } no tiene números en esta lista. Revisa que la hayas copiado bien del comprobante.

## The draw's certificate ("Acta de sorteo")
cert-title = Acta de sorteo
cert-prize = Premio { $position }: { $title }
cert-heading-commitment = Lista de números congelada
cert-root = Huella de la lista (raíz Merkle, SHA-256)
cert-size = Números vendidos en la lista
cert-frozen_at = Congelada el
cert-drawn_at = Sorteado el
cert-heading-source = Resultado público
cert-lottery = Lotería
cert-lottery_date = Sorteo del
cert-source_url = Publicación de resultados
cert-beacon = Baliza de azar
cert-beacon_round = Ronda
cert-result = Resultado
cert-published_on = Publicado el
cert-official_url = Publicación oficial
cert-beacon_signature = Firma de la ronda
cert-beacon_randomness = Azar (SHA-256 de la firma)
cert-heading-rule = La regla publicada, paso a paso
cert-winning_number = Número ganador
cert-no_winner = Sin ganador
cert-winner = Ganador: { $name } ({ $country })
cert-verify = Cualquiera puede comprobar este sorteo, la lista y este resultado en { $link }, o sin conexión con el archivo publicado y «rifa-api verify-draw».

## Receipts (PDF and HTML invoice)

receipt-document_title = Recibo de compra
receipt-raffle = Sorteo
receipt-buyer = Comprador
receipt-name = Nombre
receipt-id_document = Cédula o pasaporte
receipt-email = Correo electrónico
receipt-phone = Teléfono
receipt-country = País
receipt-payment = Pago
receipt-reference = Referencia
receipt-status = Estado
receipt-date = Fecha
receipt-payment_method = Método de pago
receipt-discount = Descuento
receipt-total = Total
receipt-amount_to_pay = Monto a pagar
receipt-amount_paid = Monto pagado
receipt-purchase_amount = Monto de la compra
receipt-rate = Tasa
receipt-tickets = Boletos
receipt-page = Página
receipt-generated = Generado el
receipt-print = Imprimir
receipt-pending_notice = Recibirás un correo de confirmación cuando tu pago sea aprobado. Conserva este recibo y tu referencia.
receipt-test_notice = Compra de prueba: no es una compra real y no reserva ningún número.
receipt-rejected_notice = Compra rechazada: no hay ningún monto que pagar y sus números quedaron liberados.
receipt-expired_notice = Reserva vencida: el comprobante no llegó a tiempo y sus números volvieron a la venta.
# The receipt dialog's words for a purchase's status.
receipt-status-pending = Procesando pago
receipt-status-approved = Aprobada
receipt-status-rejected = Rechazada
receipt-status-test = Modo Prueba
receipt-status-expired = Expirada

## The purchase form's countries, by their stored slug

country-venezuela = Venezuela
country-colombia = Colombia
country-mexico = México
country-argentina = Argentina
country-peru = Perú
country-ecuador = Ecuador
country-estados-unidos = Estados Unidos
country-other = Otro

## The buyer's e-mails

mail-subject-received = Recibimos tu compra { $reference } – { $title }
mail-subject-approved = ¡Compra aprobada! { $reference } – { $title }
mail-subject-rejected = Compra rechazada { $reference } – { $title }
mail-lead-received = Recibimos tu compra. Verificaremos tu pago y te avisaremos por este medio cuando sea aprobada.
mail-lead-received-no_proof = Recibimos tu compra, pero no nos llegó tu comprobante de pago. Envíalo desde tu página de compra (el enlace de abajo) antes de que venza la reserva de tus números: sin él no podemos verificar tu pago.
mail-lead-approved = ¡Tu pago fue verificado y tu compra está aprobada! Tus boletos ya participan en el sorteo. ¡Mucha suerte!
mail-lead-rejected = No pudimos aprobar tu compra y los números quedaron liberados. Si crees que es un error, responde a este correo con tu referencia.
mail-subject-expired = Tu reserva venció { $reference } – { $title }
mail-lead-expired = No recibimos tu comprobante a tiempo, así que tus números volvieron a la venta. Si ya pagaste, responde a este correo con tu referencia y tu comprobante: podemos reabrir tu compra si los números siguen libres.
mail-send_proof_link = Envía tu comprobante
mail-buyer_link = Sigue tu compra
mail-subject-numbers_released = Hay números disponibles otra vez en { $title }
mail-lead-numbers_released = Se liberaron números de «{ $title }», el sorteo que nos pediste vigilar. Vuelan rápido: entra y elige los tuyos.
mail-raffle_link = Ver el sorteo
mail-alert_footer = Te escribimos una sola vez porque lo pediste en la página del sorteo; no guardamos tu correo para nada más.
mail-greeting = Hola, { $name }:
mail-more_numbers = y { $count } más (todos en el recibo adjunto)
mail-raffle = Sorteo
mail-reference = Referencia
mail-tickets = Boletos
mail-total = Total
mail-payment_method = Método de pago
mail-team_note = Nota del equipo
mail-receipt_attached = Adjuntamos tu recibo en PDF.
mail-receipt_filename = recibo-{ $reference }.pdf
mail-greeting-plain = Hola:
mail-subject-ledger_frozen = La lista de números de { $title } quedó congelada
mail-lead-ledger_frozen = Las ventas de «{ $title }» cerraron y la lista de números vendidos quedó congelada antes de conocerse el resultado. Esta es su huella: si alguien cambiara un solo número, la huella sería otra. Tus números están en la lista, y puedes comprobarlo tú mismo.
mail-ledger_root = Huella de la lista (SHA-256)
mail-ledger_size = Números vendidos en la lista
mail-ledger_frozen_at = Congelada el
mail-verify_link = Compruébalo tú mismo
mail-proof_attached = Adjuntamos la prueba de que cada uno de tus números está en la lista (un archivo JSON), para comprobarla sin depender de nosotros.
mail-proof_filename = prueba-{ $reference }.json
mail-subject-prize_won = ¡Ganaste en { $title }!
mail-lead-prize_won = ¡Felicidades! Tu número { $number } ganó «{ $prize }» en «{ $title }». Responde a este correo para coordinar la entrega. Adjuntamos el acta del sorteo, con el resultado y cada paso de la regla publicada.
mail-prize = Premio
mail-winning_number = Número ganador
mail-draw_source = Resultado usado
mail-claim_until = Reclámalo antes del
mail-certificate_attached = Adjuntamos el acta del sorteo en PDF.
mail-certificate_filename = acta-de-sorteo-premio-{ $position }.pdf
draw-source-lottery = { $name }, sorteo del { $date } a las { $time } (hora de { $zone })
draw-source-beacon = drand (quicknet), ronda { $round }
mail-test-subject = Correo de prueba de { $company }
mail-test-body = Si lees esto, la configuración de correo funciona: los compradores recibirán sus confirmaciones.
