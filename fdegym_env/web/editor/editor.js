// The work page's code editor: CodeMirror 6, bundled into static/editor.bundle.js (see README.md here).
import {EditorView, basicSetup} from "codemirror";
import {keymap} from "@codemirror/view";
import {indentWithTab} from "@codemirror/commands";
import {python} from "@codemirror/lang-python";
import {unifiedMergeView} from "@codemirror/merge";

let view = null;
let original = "";
let onSave = () => {};

function make(parent, doc, diff) {
  if (view) view.destroy();
  const ext = [basicSetup, keymap.of([indentWithTab, {key: "Mod-s", preventDefault: true, run: () => { onSave(); return true; }}]), python()];
  if (diff) ext.push(unifiedMergeView({original, mergeControls: false}));
  view = new EditorView({doc, extensions: ext, parent});
}

window.FdegymEditor = {
  open(parent, text, save) { original = text; onSave = save; make(parent, text, false); },
  value() { return view ? view.state.doc.toString() : ""; },
  revert(parent) { make(parent, original, false); },
  diff(parent, on) { make(parent, this.value(), on); },
  saved(text) { original = text; },
};
