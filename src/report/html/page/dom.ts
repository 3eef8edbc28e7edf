// DOM helpers of the report page. Every piece of text from the report goes in through
// `document.createTextNode` / `textContent`: the page never parses data as HTML (no innerHTML,
// no insertAdjacentHTML) and never sets a URL attribute (href, src) or an event-handler
// attribute from data. Attribute names are always constants here.

type Child = Node | string | number | null | undefined | false;

interface Props {
  readonly class?: string;
  readonly id?: string;
  readonly title?: string;
  readonly hidden?: boolean;
  /** `data-*` attributes (values are plain attribute text, never markup). */
  readonly data?: Readonly<Record<string, string>>;
  readonly type?: string;
  readonly value?: string;
  readonly colspan?: number;
}

function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props) {
    if (props.class) node.className = props.class;
    if (props.id) node.id = props.id;
    if (props.title !== undefined) node.title = props.title;
    if (props.hidden) node.hidden = true;
    if (props.type !== undefined) node.setAttribute('type', props.type);
    if (props.value !== undefined) (node as unknown as { value: string }).value = props.value;
    if (props.colspan !== undefined) node.setAttribute('colspan', String(props.colspan));
    for (const [key, value] of Object.entries(props.data ?? {})) node.dataset[key] = value;
  }
  append(node, children);
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element; attribute names are constants of the chart code, values numbers or plain text. */
function svgEl(tag: string, attrs: Readonly<Record<string, string | number>>, ...children: Child[]): SVGElement {
  const node = document.createElementNS(SVG_NS, tag) as SVGElement;
  for (const [key, value] of Object.entries(attrs)) {
    if (/^on/i.test(key) || key === 'href' || key === 'xlink:href' || key === 'style') throw new Error(`refused attribute ${key}`);
    node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

/** Preformatted text (prompts, outputs, JSON), shown as text. */
const pre = (text: string, cls = 'text'): HTMLPreElement => el('pre', { class: cls }, text);
const jsonBlock = (value: unknown): HTMLPreElement => pre(JSON.stringify(value, null, 2) ?? 'undefined', 'json');

function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** A two-column list of facts. */
function facts(rows: readonly (readonly [Child, Child])[]): HTMLDListElement {
  const list = el('dl', { class: 'facts' });
  for (const [name, value] of rows) list.append(el('dt', null, name), el('dd', null, value));
  return list;
}

function table(header: readonly string[], rows: readonly (readonly Child[])[], cls = 'grid'): HTMLTableElement {
  return el(
    'table',
    { class: cls },
    el('thead', null, el('tr', null, ...header.map((h) => el('th', null, h)))),
    el('tbody', null, ...rows.map((row) => el('tr', null, ...row.map((cell) => el('td', null, cell))))),
  );
}
