package parse

// The words mail clients write around a reply, in the languages players
// write in. Each list is in lower case; where a language has no entry of
// its own it shares another's (Norwegian and Danish "skrev:", Spanish,
// French and Portuguese "De:"). The corpus under testdata holds a mail of
// each shape.
//
// Languages: English, German, French, Spanish, Italian, Dutch,
// Portuguese, Russian, Polish, Japanese, Swedish, Danish, Norwegian,
// Finnish, Czech, Hungarian, Turkish, Greek, Romanian, Chinese, Korean,
// Ukrainian, Catalan, Hebrew, Vietnamese, Indonesian.

// separatorWords are what clients write, between dashes, underscores or
// equals signs, before a forwarded or the original message
// ("-----Original Message-----").
var separatorWords = []string{
	"original message", "forwarded message", "original e-mail", // en
	"ursprüngliche nachricht", "original-nachricht", "originalnachricht", "weitergeleitete nachricht", // de
	"message d'origine", "message d’origine", "message original", "message transféré", "courriel original", // fr
	"mensaje original", "mensaje reenviado", // es
	"messaggio originale", "messaggio inoltrato", // it
	"oorspronkelijk bericht", "origineel bericht", "doorgestuurd bericht", "oorspronkelijk e-mailbericht", // nl
	"mensagem original", "mensagem encaminhada", "mensagem reencaminhada", // pt
	"исходное сообщение", "пересылаемое сообщение", "перенаправленное сообщение", "оригинальное сообщение", // ru
	"wiadomość oryginalna", "oryginalna wiadomość", "wiadomość przekazana", "przekazana wiadomość",
	"przesłana wiadomość", "wiadomość przesłana", // pl
	"元のメッセージ", "転送メッセージ", "転送されたメッセージ", "オリジナルメッセージ", // ja
	"ursprungligt meddelande", "vidarebefordrat meddelande", // sv
	"oprindelig meddelelse", "videresendt meddelelse", "original meddelelse", // da
	"opprinnelig melding", "videresendt melding", "original melding", // no
	"alkuperäinen viesti", "välitetty viesti", // fi
	"původní zpráva", "přeposlaná zpráva", "původní e-mail", // cs
	"eredeti üzenet", "továbbított üzenet", // hu
	"orijinal mesaj", "özgün ileti", "iletilen ileti", // tr
	"αρχικό μήνυμα", "προωθημένο μήνυμα", // el
	"mesaj original", "mesaj redirecționat", "mesajul original", // ro
	"原始邮件", "原始郵件", "转发的邮件", "轉寄郵件", "原邮件", // zh
	"원본 메시지", "전달된 메시지", // ko
	"початкове повідомлення", "оригінальне повідомлення", "переслане повідомлення", // uk
	"missatge original", "missatge reenviat", // ca
	"הודעה מקורית", "הודעה שהועברה", // he
	"thư gốc", "thư chuyển tiếp", // vi
	"pesan asli", "pesan terusan", // id
}

// forwardLines are whole lines (lower case, trailing colon included) that
// Apple Mail and others write above a forwarded message.
var forwardLines = []string{
	"begin forwarded message:", "anfang der weitergeleiteten nachricht:", "début du message réexpédié :",
	"début du message réexpédié:", "inicio del mensaje reenviado:", "inizio messaggio inoltrato:",
	"begin doorgestuurd bericht:", "início da mensagem reencaminhada:", "início da mensagem encaminhada:",
	"начало переадресованного сообщения:", "początek przekazanej wiadomości:", "転送されたメッセージ:",
	"början på vidarebefordrat meddelande:", "start på videresendt besked:", "videresendt melding:",
	"välitetty viesti alkaa:", "začátek přeposlané zprávy:", "továbbított levél kezdete:",
	"iletilen ileti başlangıcı:", "αρχή προωθημένου μηνύματος:", "începutul mesajului redirecționat:",
	"以下是转发的邮件:", "以下是轉寄的郵件:", "전달된 메시지 시작:", "початок пересланого повідомлення:",
	"inici del missatge reenviat:",
}

// fromLabels and dateLabels are the labels of the header block Outlook and
// others put above an unquoted original: "From: … Sent: …",
// "Von: … Gesendet: …", "差出人: … 送信日時: …".
var fromLabels = []string{
	"from",             // en
	"von",              // de
	"de", "expéditeur", // fr, es, pt, ca
	"remitente",      // es
	"da", "mittente", // it
	"van",               // nl
	"remetente",         // pt
	"от", "отправитель", // ru
	"od", "nadawca", // pl, cs
	"差出人", "送信者", // ja
	"från", "avsändare", // sv
	"fra", "afsender", "avsender", // da, no
	"lähettäjä",          // fi
	"odesílatel",         // cs
	"feladó",             // hu
	"kimden", "gönderen", // tr
	"από", "αποστολέας", // el
	"de la", "expeditor", // ro
	"发件人", "寄件者", "寄件人", // zh
	"보낸 사람", "보낸사람", // ko
	"від", "відправник", // uk
	"מאת",             // he
	"từ", "người gửi", // vi
	"dari", "pengirim", // id
}

var dateLabels = []string{
	"sent", "date", // en
	"gesendet", "datum", // de, nl, sv, cs
	"envoyé", "envoyé le", // fr
	"enviado", "enviado el", "fecha", "enviada", "enviada em", "enviado em", "data de envio", // es, pt
	"inviato", "inviato il", "data", // it, pl, pt, ro, ca
	"verzonden", "verstuurd", // nl
	"отправлено", "дата", // ru, uk
	"wysłano", "wysłane", // pl
	"送信日時", "送信日", "日付", "日時", // ja
	"skickat", "skickades", // sv
	"sendt", "dato", // da, no
	"lähetetty", "päivämäärä", // fi
	"odesláno",                    // cs
	"elküldve", "küldve", "dátum", // hu
	"gönderildi", "tarih", "gönderilme tarihi", // tr
	"στάλθηκε", "ημερομηνία", "εστάλη", // el
	"trimis",                             // ro
	"发送时间", "日期", "發送時間", "寄件日期", "发送日期", // zh
	"보낸 날짜", "날짜", // ko
	"надіслано",     // uk
	"enviat",        // ca
	"נשלח", "תאריך", // he
	"đã gửi", "ngày", // vi
	"dikirim", "tanggal", // id
}

// attributionEnds are the endings of attribution lines ("On … wrote:").
var attributionEnds = []string{
	"wrote:", "writes:", "wrote :", "wrote：", // en
	"schrieb:", "hat geschrieben:", // de
	"a écrit :", "a écrit:", "a écrit :", // fr
	"escribió:", "escribio:", // es
	"ha scritto:",                   // it
	"schreef:", "heeft geschreven:", // nl
	"escreveu:",                                      // pt
	"написал(а):", "написал:", "написала:", "пишет:", // ru
	"pisze:", "napisał(a):", "napisał:", "napisała:", "napisał(-a):", "napisał/a:", "napisal(a):", "napisal:", // pl
	"書きました:", "書きました：", "書き込みました:", // ja
	"skrev:",                            // sv, da, no
	"kirjoitti:",                        // fi
	"napsal(a):", "napsal:", "napsala:", // cs
	"írta:",                 // hu
	"yazdı:", "şunu yazdı:", // tr
	"έγραψε:",                  // el
	"a scris:",                 // ro
	"写道：", "写道:", "寫道：", "寫道:", // zh
	"작성:", "님이 작성:", // ko
	"пише:", "написав:", "написала:", "написав(ла):", // uk
	"va escriure:",  // ca
	"כתב:", "כתבה:", // he
	"đã viết:", // vi
	"menulis:", // id
}

// attributionStarts begin the first line of an attribution wrapped over
// several lines.
var attributionStarts = []string{
	"on ", "am ", "le ", "el ", "em ", "il ", "il giorno ", "op ", "den ", "dne ", "w dniu ", "dnia ",
	"в ", "vào ", "pada ", "pada tanggal ", "la ", "στις ", "în ", "i ", "ma ", "ti ", "ke ",
}

// weekdays, as clients abbreviate them at the start of an attribution.
var weekdays = []string{
	"mon", "tue", "wed", "thu", "fri", "sat", "sun", // en
	"mo", "di", "mi", "do", "fr", "sa", "so", // de
	"lun", "mar", "mer", "jeu", "ven", "sam", "dim", // fr
	"mié", "jue", "vie", "sáb", "dom", // es
	"gio",                  // it
	"wo", "vr", "za", "zo", // nl
	"seg", "ter", "qua", "qui", "sex", // pt
	"пн", "вт", "ср", "чт", "пт", "сб", "вс", // ru
	"pon", "wt", "śr", "czw", "pt", "sob", "niedz", "nie", "ndz", // pl
	"mån", "tis", "ons", "tors", "fre", "lör", "sön", // sv
	"man", "tirs", "tor", "lør", "søn", // da, no
	"ma", "ti", "ke", "to", "pe", "la", "su", // fi
	"po", "út", "st", "čt", "pá", "ne", // cs
	"sze", "cs", // hu
	"pzt", "sal", "çar", "per", "cum", "cmt", "paz", // tr
	"δευ", "τρι", "τετ", "πεμ", "παρ", "σαβ", "κυρ", // el
	"mie", "joi", // ro
	"нд", // uk
}

// trailerStarts begin the lines mobile clients and web mailers append
// ("Sent from my iPhone"). A line is a trailer only in this known shape:
// one of these starts, a short rest naming a device or a mail program
// (trailerThings), no comma, nothing more.
var trailerStarts = []string{
	"sent from my ", "sent from ", "sent with ", "sent via ", "sent using ", "get outlook for ", "get ", // en
	"von meinem ", "gesendet von meinem ", "gesendet von ", "gesendet mit ", // de
	"envoyé de mon ", "envoyé depuis mon ", "envoyé de ", "envoyé depuis ", "envoyé avec ", // fr
	"enviado desde mi ", "enviado desde ", "enviado con ", // es
	"inviato da ", "inviato dal mio ", "inviato con ", // it
	"verzonden vanaf mijn ", "verstuurd vanaf mijn ", "verzonden vanaf ", "verzonden met ", // nl
	"enviado do meu ", "enviado do ", "enviado de meu ", "enviado a partir do meu ", // pt
	"отправлено с ", "отправлено из ", "отправлено с моего ", // ru
	"wysłane z ", "wysłano z ", "wysłane z mojego ", // pl
	"skickat från min ", "skickat från ", // sv
	"sendt fra min ", "sendt fra ", // da, no
	"lähetetty ",                  // fi
	"odesláno z ", "odesláno ze ", // cs
	"küldve ", "küldve az ", // hu
	"εστάλη από ", "στάλθηκε από ", // el
	"trimis de pe ", "trimis de ", // ro
	"发自我的", "从我的", "來自我的", "发自", // zh
	"надіслано з ",                          // uk
	"enviat des del meu ", "enviat des de ", // ca
	"נשלח מה", "נשלח מ", // he
	"gửi từ ",       // vi
	"dikirim dari ", // id
}

// trailerEnds end the lines of languages that put the device first
// ("iPhoneから送信", "Von meinem iPhone gesendet" is a start and an end).
var trailerEnds = []string{
	"から送信", "gesendet", "gesendet.", "gönderildi", "gönderildi.", "에서 보냄", "lähetetty", "lähetetty.", "küldve",
}

// trailerThings name what a trailer may say it was sent from.
var trailerThings = []string{
	"iphone", "ipad", "ipod", "android", "samsung", "galaxy", "blackberry", "huawei", "xiaomi", "pixel",
	"nokia", "motorola", "oneplus", "oppo", "xperia", "htc", "mobile", "phone", "smartphone", "tablet",
	"cell", "handy", "mobiltelefon", "telefon", "téléphone", "teléfono", "telefono", "telefoon", "telefone",
	"телефон", "outlook", "mail for windows", "yahoo", "aol", "gmail", "proton", "tutanota", "fastmail",
	"thunderbird", "k-9", "blue mail", "bluemail", "spark", "airmail", "mail.ru", "yandex", "яндекс",
	"windows", "apple watch", "watch", "kindle", "手机", "手機", "móvil", "movil", "cellulare", "mobiel",
	"celular", "мобильного", "komórki", "mobil", "puhelin", "matkapuhelin", "mobilní", "mobiltelefonról",
}

// closings are the sign-offs players write under their orders, alone on a
// line ("Thanks", "Cheers, Anna", "Mit freundlichen Grüßen").
var closings = []string{
	// en
	"thanks", "thank you", "thanks a lot", "many thanks", "thanks again", "thx", "ta", "cheers", "regards",
	"best", "best regards", "kind regards", "warm regards", "with regards", "all the best", "best wishes",
	"yours", "yours truly", "sincerely", "yours sincerely", "take care", "br", "rgds", "later", "bye",
	"have fun", "good luck", "onward", "onwards",
	// de
	"grüße", "gruß", "viele grüße", "liebe grüße", "beste grüße", "herzliche grüße", "freundliche grüße",
	"mit freundlichen grüßen", "mfg", "lg", "vg", "danke", "vielen dank", "servus", "ciao", "tschüss",
	// fr
	"merci", "merci beaucoup", "cordialement", "bien cordialement", "bien à vous", "amitiés", "à bientôt",
	"salutations", "bonne journée", "bises",
	// es
	"saludos", "un saludo", "gracias", "muchas gracias", "atentamente", "un abrazo", "abrazos", "hasta luego",
	// it
	"saluti", "cordiali saluti", "grazie", "grazie mille", "a presto", "un saluto", "distinti saluti",
	// nl
	"groeten", "groetjes", "met vriendelijke groet", "met vriendelijke groeten", "vriendelijke groet", "bedankt",
	"dank je", "dank je wel", "mvg", "hartelijke groet",
	// pt
	"obrigado", "obrigada", "abraço", "abraços", "um abraço", "atenciosamente", "cumprimentos", "saudações",
	// ru
	"спасибо", "с уважением", "всего доброго", "пока", "удачи", "с наилучшими пожеланиями",
	// pl
	"pozdrawiam", "pozdrowienia", "dzięki", "dziękuję", "serdecznie pozdrawiam", "z poważaniem", "pzdr",
	// ja
	"よろしくお願いします", "よろしくお願いします。", "よろしくお願いいたします", "よろしくお願いいたします。",
	"宜しくお願いします", "以上です", "以上です。", "以上", "ありがとうございます", "ありがとうございます。",
	// sv
	"hälsningar", "med vänlig hälsning", "vänliga hälsningar", "mvh", "tack", "tack så mycket", "hej då",
	// da
	"venlig hilsen", "med venlig hilsen", "hilsen", "tak", "mange tak", "vh",
	// no
	"vennlig hilsen", "med vennlig hilsen", "takk", "hilsen fra",
	// fi
	"terveisin", "ystävällisin terveisin", "kiitos", "kiitos paljon",
	// cs
	"s pozdravem", "díky", "děkuji", "zdravím", "mějte se",
	// hu
	"üdvözlettel", "üdv", "köszönöm", "köszi", "tisztelettel",
	// tr
	"saygılarımla", "teşekkürler", "selamlar", "iyi çalışmalar", "sevgiler",
	// el
	"ευχαριστώ", "με εκτίμηση", "χαιρετισμούς", "φιλικά",
	// ro
	"mulțumesc", "cu stimă", "toate cele bune", "salutări", "o zi bună",
	// zh
	"谢谢", "謝謝", "此致", "此致敬礼", "祝好", "敬上",
	// ko
	"감사합니다", "감사합니다.", "고맙습니다",
	// uk
	"дякую", "з повагою", "на все добре",
	// ca
	"salutacions", "gràcies", "una abraçada",
	// he
	"תודה", "בברכה",
	// vi
	"cảm ơn", "trân trọng",
	// id
	"terima kasih", "salam", "hormat saya",
}

// greetings open a mail ("Hi,", "Hallo Schiri,", "Cześć!").
var greetings = []string{
	"hi", "hello", "hey", "dear", "good morning", "good evening", "greetings", "howdy", "yo",
	"hallo", "liebe", "lieber", "guten tag", "guten morgen", "moin", "servus",
	"bonjour", "bonsoir", "salut", "cher", "chère",
	"hola", "buenos días", "buenas tardes", "estimado", "estimada", "querido",
	"ciao", "buongiorno", "buonasera", "salve", "caro", "cara",
	"hoi", "beste", "goedemorgen", "goedemiddag", "dag",
	"olá", "oi", "bom dia", "boa tarde", "prezado", "caro",
	"привет", "здравствуйте", "добрый день", "доброе утро", "уважаемый",
	"cześć", "witam", "dzień dobry", "witaj", "hej",
	"こんにちは", "お疲れ様です", "お世話になっております",
	"hej", "hejsan", "god dag", "hei", "heippa", "moi", "terve",
	"ahoj", "dobrý den", "zdravím",
	"szia", "helló", "kedves", "jó napot",
	"merhaba", "selam", "sayın",
	"γεια", "γεια σας", "αγαπητέ",
	"bună", "bună ziua", "salutare",
	"你好", "您好", "안녕하세요", "привіт", "добрий день", "bon dia", "שלום", "xin chào", "chào", "halo", "hai",
}

// attachmentWords are what a body says when the orders are attached
// ("Orders attached.", "Befehle im Anhang", "Rozkazy w załączniku").
var attachmentWords = []string{
	"attach", "enclosed", "see file", // en
	"anbei", "anhang", "angehängt", "beigefügt", // de
	"ci-joint", "pièce jointe", "pj", "joint", // fr
	"adjunt", "anexo", "anexa", // es, pt, ca
	"allegat",               // it
	"bijlage", "bijgevoegd", // nl
	"em anexo", "segue", // pt
	"вложени", "приложени", "во вложении", // ru
	"załącz",            // pl
	"添付",                // ja
	"bifogad", "bilaga", // sv
	"vedhæft", "vedlagt", "vedlegg", // da, no
	"liite", "liitteenä", // fi
	"příloh", "přiložen", // cs
	"csatol", "mellékel", // hu
	"ekte", "ekli", // tr
	"συνημμέν",        // el
	"atașa", "anexat", // ro
	"附件", "附上", // zh
	"첨부",                // ko
	"вкладенн", "додат", // uk
	"מצורף",                 // he
	"đính kèm",              // vi
	"terlampir", "lampiran", // id
}

// listFooterWords mark the footer a mailing list adds under a rule line
// ("Wargamers mailing list", a listinfo URL).
var listFooterWords = []string{
	"mailing list", "listinfo", "mailman", "unsubscribe", "list archive", "groups.io", "googlegroups",
	"google groups", "you received this message because you are subscribed", "mailingliste", "liste de diffusion",
	"lista de correo", "lista di distribuzione", "lista dyskusyjna", "список рассылки", "sympa", "/lists/",
}
