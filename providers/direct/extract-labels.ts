// Boilerplate labels inside the chosen main content (providers/direct/extract.ts): a block whose whole text is a
// site's stock phrase ("Related articles", "Über den Autor", "Leave a comment", "5 min read", "Advertisement") goes,
// and a label that introduces related reading takes the link-heavy blocks that follow it along. Phrases in the
// languages of the web's larger share (en, de, fr, es, pt, it, pl, nl); a sentence or a long line is never one.

import { CELL_TAGS } from "./dom-tags.ts";
import { collapse, textOf } from "./dom-text.ts";
import type { El } from "./dom-types.ts";
import type { LeftOut } from "./extract-left-out.ts";
import { isBlockIn, type Stats } from "./extract-measure.ts";

export const LABEL_RULES = {
	/** A label is at most this long (a stock phrase, maybe with a count or a name after it). */
	maxChars: 60,
	/** After a related-reading label, a following block with more link text than this goes too. */
	followLinkDensity: 0.3,
};

const OPT_COLON = "\\s*[:：»›>→….]*\\s*";

/** Headings and labels that introduce related reading: what follows them is teasers and links. */
const RELATED = new RegExp(
	`^(?:related(?: (?:posts?|articles?|stories|content|topics|reading|links))?|more (?:on|about) (?:this|the) (?:topic|story|subject)|you (?:may|might) (?:also )?(?:like|enjoy|be interested in)|recommended(?: for you| reading)?|read (?:more|next|also)|see also|further reading|more (?:stories|articles|news|posts)(?: from [^.!?]{1,30})?|most (?:read|popular|viewed)|latest (?:news|posts|articles|stories)|top stories|trending(?: now)?|mehr zu[mr]? thema|mehr zu[mr]? [^.!?]{1,30}|(?:entdecke(?:n sie)? )?weitere [\\p{L}-]*(?:artikel|beiträge|informationen|infos|themen|nachrichten|meldungen|links|tipps|storys|videos|rezepte)(?: (?:zu[mr]?|in|aus) [^.!?]{1,30})?|auch interessant|das (?:könnte|dürfte) (?:dich|sie) (?:auch )?interessieren|das könnte (?:dich|sie)(?: auch)?|zum weiterlesen|weiterlesen|lesen sie auch|lies auch|passend (?:dazu|zum thema)|neueste (?:artikel|beiträge|nachrichten)|beliebte (?:artikel|beiträge)|meistgelesen(?:e)?(?: artikel)?|top[ -]themen(?: der redaktion)?|noch mehr [^.!?]{1,30}|temas relacionados|noticias relacionadas|te puede interesar|l(?:ee|ea|eer) también|leer más|ver también|te (?:puede|podría) interesar|más noticias|leia (?:também|mais)|veja também|voir aussi|à voir aussi|lire également|vedi anche|ti potrebbe interessare|potrebbe interessarti|zie ook|lees meer|also read|articles? (?:similaires|liés|connexes)|à lire aussi|lire aussi|lire la suite|sur le même sujet|articoli correlati|leggi anche|powiązane(?: artykuły)?|czytaj (?:też|także|więcej)|gerelateerde artikelen|lees ook|inhaltsverzeichnis|inhalt|table of contents|contents|índice|sommaire|indice|inhoud(?:sopgave)?|spis treści)${OPT_COLON}$`,
	"iu",
);

/** Labels of a box that is not the article's text: the author's bio, sharing, newsletters, comments, ads. */
const STOCK = new RegExp(
	`^\\(?(?:about the author|(?:vorschau auf den )?nächste[rn]? (?:artikel|beitrag)|vorherige[rn]? (?:artikel|beitrag)|(?:next|previous) (?:article|post|story)|article (?:suivant|précédent)|artículo (?:siguiente|anterior)|(?:noch )?keine bewertungen(?: vorhanden)?|no (?:ratings|reviews) yet|(?:alle )?angaben ohne gewähr|(?:presse|medien)?kontakt|(?:press |media )?contact|contacto(?: de prensa)?|(?:möchten sie|willst du) (?:den|diesen) artikel teilen\\??|über (?:den autor|die autorin)(?:in)?|zur person|à propos de l'auteur|sobre el autor|o autorze|share(?: (?:this|on)(?: (?:article|post|story|page))?)?|teilen|(?:diesen )?artikel teilen|jetzt teilen|partager|compartir|condividi|udostępnij|subscribe(?: to (?:our|the) newsletter)?|sign up for (?:our|the) newsletter|newsletter(?: abonnieren)?|follow us|folgen sie uns|valora (?:esta|este) (?:noticia|artículo|nota)|rate this (?:article|post|story)|(?:diesen )?artikel bewerten|externer inhalt|external content|contenu externe|contenido externo|zurück zu[mr]? [^.!?]{1,30}|back to [^.!?]{1,30}|retour (?:à|au|aux) [^.!?]{1,30}|volver a [^.!?]{1,30}|(?:anzeige|werbung)\\s*[,/|–-]\\s*(?:enthält )?affiliate[- ]links?|(?:join|get|sign up for|subscribe to) [^.!?]{0,40}newsletters?|suscr[ií]bete(?: a [^.!?]{1,30})?|abonnez-vous(?: à [^.!?]{1,30})?|s'abonner(?: à [^.!?]{1,30})?|iscriviti(?: a(?:lla)? [^.!?]{1,30})?|inscreva-se(?: [^.!?]{1,30})?|abonnieren|tags?|schlagw(?:ö|o)rte?r?|stichw(?:ö|o)rte?r?|kategorien?|categories|filed under|posted in|(?:\\d+ )?(?:comments?|kommentare?|commentaires?|comentarios?|komentarze?)(?: \\(\\d+\\))?|leave a (?:comment|reply)|kommentar (?:schreiben|verfassen)|schreibe einen kommentar|write a comment|advertisement|anzeige|werbung|publicidad|publicité|pubblicità|reklama|\\d+ (?:min(?:ute)?s?|minuten|minut) (?:read|lesezeit|czytania|de lecture|de lectura)|lesezeit${OPT_COLON}\\d+ min(?:uten)?)\\)?${OPT_COLON}$`,
	"iu",
);

/**
 * Takes the labels out of `root`: each block whose text is a stock phrase, and after a related-reading label the
 * sibling blocks that follow it while they are mostly links, except those `keep` says are the article's (its
 * declared text, extract.ts). Counted in `leftOut` (never quoted).
 */
export function dropLabels(root: El, stats: Stats, leftOut: LeftOut, keep?: (element: El) => boolean): void {
	const stack: El[] = [root];
	while (stack.length > 0) {
		const element = stack.pop()!;
		let removed = false;
		/** Set after a related-reading label: link-heavy siblings after it go too. */
		let following = false;
		for (const child of element.children) {
			if (typeof child === "string") continue;
			if (!isBlockIn(stats, child)) continue;
			const chars = stats.chars[child.id]!;
			if (
				following &&
				chars > 0 &&
				stats.linkChars[child.id]! / chars > LABEL_RULES.followLinkDensity &&
				!keep?.(child)
			) {
				child.removed = removed = true;
				continue;
			}
			following = false;
			const kind = chars > 0 && chars <= LABEL_RULES.maxChars ? labelKind(child) : undefined;
			if (kind === undefined) {
				// A block holding no block (a paragraph, a list item) has no block child to be a label.
				if (child.hasBlock) stack.push(child);
				continue;
			}
			child.removed = removed = true;
			leftOut.count++;
			following = kind === "related";
		}
		if (removed) element.children = element.children.filter((child) => typeof child === "string" || !child.removed);
	}
}

/** A picture's credit or a source line: "Foto: dpa", "Photo: Getty Images", "Bildquelle: …", "© …". */
const CREDIT =
	/^\(?(?:fotos?|photos?|bild(?:er|quelle|nachweis)?|images?|cr[ée]dits?(?: photos?)?|photo credits?|quelle|source|titelbild|beitragsbild|copyright|©)(?:\s*[:：/|]|\s*©|$)(?:[^.!?]|(?<=\d)\.){0,60}\.?$/iu;

/** A picture's credit as a name and a photo agency: "Judy Eddy/WENN.com", "Jan Kowalski / Getty Images". */
const AGENCY_CREDIT =
	/^\(?[\p{L} .'’-]{2,40}\s*\/\s*(?:getty images|afp|dpa|reuters|imago(?: images)?|wenn(?:\.com)?|ap|epa|efe|ansa|keystone|shutterstock|istock(?:photo)?|picture[- ]alliance)\)?$/iu;

/** A date, count or filing line of the page's header or footer: "Aktualisiert am 3. Mai", "Last modified: …". */
const META_LINE =
	/^(?:aktualisiert|updated|last (?:modified|updated)|published|veröffentlicht|erschienen|release date|posted|views|aufrufe|kategorie|category|rubrik|ressort)(?: am| in| on)?(?:\s*[:：]|\s+(?=\d{1,2}\.\d{1,2}\.\d{2,4})|$)(?:[^.!?]|(?<=\d)\.){0,40}$/iu;

/** A line that is only a date or a time ("23.10.2018", "3:59 PM"), or a Q&A site's "asked Feb 6, 2014 at 20:37". */
const DATE_LINE =
	/^(?:(?:\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{4}-\d{2}-\d{2})(?:,?\s*\d{1,2}:\d{2}(?:\s*(?:am|pm|uhr|h))?)?|\d{1,2}:\d{2}(?:\s*(?:am|pm|uhr|h))?|(?:asked|answered|edited) \p{L}{3} \d{1,2}(?:, \d{4})? at \d{1,2}:\d{2})$/iu;

/**
 * All the patterns in one, anchored once (each of them starts with `^`): most short blocks are no label, and each
 * is then tested once instead of once for each. Only a block it matches is told related or stock. The agency credit
 * is apart: its name part runs up to 40 characters and back looking for the slash, on any text starting with a
 * letter (it was 85 % of this test's time on the bench's page), so it is run only on a text holding a slash.
 */
const LABEL_PATTERNS = [RELATED, STOCK, CREDIT, META_LINE, DATE_LINE];
const ANY_LABEL = new RegExp(
	`^(?:${LABEL_PATTERNS.map((pattern) => `(?:${pattern.source.slice(1)})`).join("|")})`,
	"iu",
);

function labelKind(element: El): "related" | "stock" | undefined {
	const text = collapse(textOf(element));
	if (text === "" || !(ANY_LABEL.test(text) || (text.includes("/") && AGENCY_CREDIT.test(text)))) return undefined;
	if (RELATED.test(text)) return "related";
	// A date alone in a table's cell is the table's data, not a dateline.
	return CELL_TAGS.has(element.tag) && DATE_LINE.test(text) ? undefined : "stock";
}
