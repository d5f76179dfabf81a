/**
 * `foundry.applications.api.DialogV2` (v13 and v14), rendered into the
 * client's real DOM so tests answer it like a user: find the dialog element,
 * set its form inputs, click a button.
 *
 * Documented behavior reproduced:
 * - `DialogV2.wait({window: {title}, content, buttons, rejectClose, render, close, modal})`
 *   resolves with the clicked button's `callback(event, button, dialog)` result, or
 *   the button's `action` when it has no callback OR its callback returns nothing
 *   (`DialogV2Button.callback`: "The value returned from this function will be used as the
 *   dialog's submitted value. Otherwise, the button's identifier is used.",
 *   https://foundryvtt.com/api/v12/interfaces/foundry.DialogV2Button.html); dismissing
 *   resolves `null`, or rejects when `rejectClose` is true.
 * - `DialogV2.prompt({ok, ...})` and `DialogV2.confirm({yes, no, ...})` wrap `wait`.
 * - The callback's third argument is the `DialogV2` instance (v13, v14 `DialogV2ButtonCallback`).
 * - The content is inside a `<form>`; each button is a `<button data-action>`
 *   inside the form, so `button.form.elements` reaches the inputs.
 * - Hooks `renderDialogV2` / `renderApplicationV2` fire with `(app, element, context, options)`.
 */
export function createDialogV2(ctx) {
  class DialogV2 {
    constructor(options = {}) {
      this.options = options;
      this.element = null;
      this.rendered = false;
    }

    get title() {
      return this.options.window?.title ?? "";
    }

    async render() {
      const doc = ctx.global.document;
      const element = doc.createElement("dialog");
      element.className = "application dialog";
      element.setAttribute("open", "");
      element.dataset.appId = String(ctx.nextAppId++);
      const header = doc.createElement("header");
      header.className = "window-header";
      header.textContent = this.title;
      const form = doc.createElement("form");
      form.className = "window-content dialog-form standard-form";
      const content = doc.createElement("div");
      content.className = "dialog-content standard-form";
      content.innerHTML = this.options.content ?? "";
      form.append(content);
      const footer = doc.createElement("footer");
      footer.className = "form-footer";
      for (const spec of this.options.buttons ?? []) {
        const button = doc.createElement("button");
        button.type = "submit";
        button.dataset.action = spec.action;
        button.className = spec.class ?? "";
        if (spec.default) button.classList.add("default");
        button.textContent = ctx.game.i18n.localize(spec.label ?? spec.action);
        footer.append(button);
      }
      form.append(footer);
      element.append(header, form);
      doc.body.append(element);
      this.element = element;
      this.rendered = true;
      form.addEventListener("submit", (event) => event.preventDefault());
      form.addEventListener("click", (event) => {
        const button = event.target.closest?.("button[data-action]");
        if (!button || !form.contains(button)) return;
        event.preventDefault();
        void this._onButton(event, button);
      });
      ctx.Hooks.callAll("renderDialogV2", this, element, {}, {});
      ctx.Hooks.callAll("renderApplicationV2", this, element, {}, {});
      this.options.render?.(new ctx.global.Event("render"), this);
      ctx.dialogs.push(this);
      return this;
    }

    async _onButton(event, button) {
      const spec = (this.options.buttons ?? []).find((b) => b.action === button.dataset.action);
      let result = spec?.action;
      if (spec?.callback) {
        const returned = await spec.callback(event, button, this);
        result = returned === undefined ? spec.action : returned;
      }
      this.options.submit?.(result, this);
      this._settle?.({ result });
      await this.close({ submitted: true });
    }

    async close({ submitted = false } = {}) {
      if (!this.rendered) return this;
      this.rendered = false;
      this.element.remove();
      ctx.dialogs.splice(ctx.dialogs.indexOf(this), 1);
      this.options.close?.(new ctx.global.Event("close"), this);
      if (!submitted) this._settle?.({ dismissed: true });
      return this;
    }

    static async wait({ rejectClose = false, close, render, ...options } = {}) {
      return new Promise((resolve, reject) => {
        const dialog = new DialogV2({ ...options, close, render });
        dialog._settle = ({ result, dismissed }) => {
          dialog._settle = null;
          if (dismissed) {
            if (rejectClose) reject(new Error("Dialog was dismissed without pressing a button."));
            else resolve(null);
          } else resolve(result);
        };
        dialog.render({ force: true });
      });
    }

    // The `rejectClose` defaults of `wait` (false), `prompt` (true) and `confirm` (false) are not
    // stated on the DialogV2WaitOptions pages (v12/v13 say only "Throw a Promise rejection if the
    // dialog is dismissed"): no public source, the fake's reading.
    static async prompt({ ok = {}, ...options } = {}) {
      return DialogV2.wait({ ...options, buttons: [{ action: "ok", label: "Confirm", default: true, ...ok }], rejectClose: options.rejectClose ?? true });
    }

    static async confirm({ yes = {}, no = {}, ...options } = {}) {
      return DialogV2.wait({
        ...options,
        buttons: [
          { action: "yes", label: "Yes", callback: () => true, ...yes },
          { action: "no", label: "No", default: true, callback: () => false, ...no },
        ],
        rejectClose: options.rejectClose ?? false,
      });
    }
  }
  return DialogV2;
}
