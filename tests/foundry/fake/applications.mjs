/**
 * The application classes a module renders a form with, rendered into the
 * client's real DOM so tests fill the form and submit it like a user:
 * `foundry.applications.api.ApplicationV2` with `HandlebarsApplicationMixin`
 * (v13 and v14), `FormDataExtended`, and what `ClientSettings#registerMenu`
 * registers (`game.settings.menus`), opened the way the settings window's
 * menu button does (`openSettingsMenu`).
 *
 * Documented behavior reproduced (public API pages only):
 * - `ClientSettings#registerMenu(namespace, key, data)` with a
 *   `SettingSubmenuConfig` `{name, label, hint, icon, type, restricted}`;
 *   `restricted`: "If true, only a GM can edit this Setting"; `type`:
 *   v13 "The Application class to render", `typeof Application | typeof ApplicationV2`
 *   (https://foundryvtt.com/api/interfaces/foundry.types.SettingSubmenuConfig.html);
 *   `ClientSettings#menus`: "Registered settings menus which trigger secondary
 *   applications" (https://foundryvtt.com/api/classes/foundry.helpers.ClientSettings.html).
 *   Opening one renders a new instance of `type` (the fake's reading of "The
 *   Application class to render"; no page states the constructor arguments,
 *   so none are passed).
 * - `ApplicationV2` + `HandlebarsApplicationMixin`
 *   (https://foundryvtt.com/api/v12/classes/foundry.HandlebarsApplication.html):
 *   `static PARTS: Record<string, HandlebarsTemplatePart>` ("a registry of
 *   template parts"), `_prepareContext(options)`, `render(options)`,
 *   `close()`, `element`; `DEFAULT_OPTIONS` `{id, tag: "form", window: {title},
 *   form: {handler, submitOnChange, closeOnSubmit}}`
 *   (`ApplicationFormConfiguration`,
 *   https://foundryvtt.com/api/v12/interfaces/foundry.applications.types.ApplicationFormConfiguration.html);
 *   the handler is called `(event, form, formData: FormDataExtended)` "in the
 *   context of" the application
 *   (https://foundryvtt.com/api/types/foundry.applications.types.ApplicationFormSubmission.html).
 *   The DEFAULT_OPTIONS of a subclass are merged over its parent's (the
 *   fake's reading; the pages list the option keys, not the merge).
 * - `FormDataExtended` (https://foundryvtt.com/api/classes/client.FormDataExtended.html):
 *   "more opinionated about how input fields of certain types should be
 *   evaluated": a checkbox is a boolean, a `type="number"` input or
 *   `data-dtype="Number"` a number, other fields their string; `object` is
 *   the result. Disabled fields are left out ("Include disabled fields?"
 *   defaults to false).
 */
export function createApplications(ctx) {
  const { utils } = ctx;

  class FormDataExtended {
    /** @param {HTMLFormElement} form */
    constructor(form, { disabled = false } = {}) {
      this.object = {};
      for (const element of form.elements) {
        if (!element.name || (element.disabled && !disabled)) continue;
        if (element.type === "checkbox") this.object[element.name] = element.checked;
        else if (element.type === "radio") {
          if (element.checked) this.object[element.name] = element.value;
        } else if (element.type === "number" || element.dataset.dtype === "Number") {
          this.object[element.name] = element.value === "" ? null : Number(element.value);
        } else if (element.tagName !== "BUTTON") this.object[element.name] = element.value;
      }
    }
  }

  /** Rendered application windows of this client, newest last (the tests find them here). */
  ctx.applications = [];

  /** A window element: header with the title, then the content. */
  function windowElement(id, title, content, tag = "div") {
    const doc = ctx.global.document;
    const element = doc.createElement(tag);
    element.className = "application window-app";
    if (id) element.id = id;
    element.dataset.appId = String(ctx.nextAppId++);
    const header = doc.createElement("header");
    header.className = "window-header";
    header.textContent = title;
    element.append(header);
    if (content) element.append(content);
    doc.body.append(element);
    return element;
  }

  class ApplicationV2 {
    static DEFAULT_OPTIONS = { id: "", tag: "div", classes: [], window: { title: "" }, form: { handler: null, submitOnChange: false, closeOnSubmit: false }, actions: {} };

    constructor(options = {}) {
      const chain = [];
      for (let cls = this.constructor; cls && cls !== Object; cls = Object.getPrototypeOf(cls)) if (Object.hasOwn(cls, "DEFAULT_OPTIONS")) chain.unshift(cls.DEFAULT_OPTIONS);
      this.options = [...chain, options].reduce((merged, next) => utils.mergeObject(merged, next, { inplace: false }), {});
      this.element = null;
      this.rendered = false;
    }

    get title() {
      return this.options.window?.title ?? "";
    }

    get id() {
      return this.options.id;
    }

    async _prepareContext() {
      return {};
    }

    /** The mixin renders the parts; a bare ApplicationV2 renders nothing. */
    async _renderHTML() {
      return {};
    }

    async render(options = {}) {
      const context = await this._prepareContext(typeof options === "object" ? options : { force: Boolean(options) });
      const parts = await this._renderHTML(context, options);
      const doc = ctx.global.document;
      const content = doc.createElement(this.options.tag ?? "div");
      content.className = "window-content";
      for (const part of Object.values(parts)) content.append(part);
      this.element?.remove();
      const element = windowElement(this.options.id, this.title, null, "div");
      element.append(content);
      this.element = element;
      this.rendered = true;
      if (content.tagName === "FORM") {
        content.addEventListener("submit", (event) => {
          event.preventDefault();
          void this._onSubmitForm(event, content);
        });
      }
      if (!ctx.applications.includes(this)) ctx.applications.push(this);
      // `_onRender(context, options)`: "Actions performed after any render of the Application"
      // (https://foundryvtt.com/api/classes/foundry.applications.api.ApplicationV2.html#_onrender).
      await this._onRender(context, options);
      ctx.Hooks.callAll(`render${this.constructor.name}`, this, element, context, options);
      ctx.Hooks.callAll("renderApplicationV2", this, element, context, options);
      return this;
    }

    async _onRender() {}

    async _onSubmitForm(event, form) {
      const handler = this.options.form?.handler;
      if (handler) await handler.call(this, event, form, new FormDataExtended(form));
      if (this.options.form?.closeOnSubmit) await this.close();
    }

    async close() {
      if (!this.rendered) return this;
      this.rendered = false;
      this.element.remove();
      ctx.applications.splice(ctx.applications.indexOf(this), 1);
      return this;
    }
  }

  function HandlebarsApplicationMixin(Base) {
    return class HandlebarsApplication extends Base {
      static PARTS = {};

      async _renderHTML(context) {
        const parts = {};
        for (const [id, part] of Object.entries(this.constructor.PARTS ?? {})) {
          const holder = ctx.global.document.createElement("div");
          holder.innerHTML = (await ctx.renderTemplate(part.template, context)).trim();
          const element = holder.firstElementChild;
          if (!element || holder.children.length !== 1) throw new Error(`Template part "${id}" must render a single HTML element.`);
          element.dataset.applicationPart = id;
          parts[id] = element;
        }
        return parts;
      }
    };
  }

  /** `game.settings.registerMenu(namespace, key, data)`. */
  function registerMenu(namespace, key, data) {
    if (!namespace || !key) throw new Error("You must specify both namespace and key portions of the menu");
    ctx.game.settings.menus.set(`${namespace}.${key}`, { ...data, namespace, key });
  }

  /**
   * What the settings window's menu button does: a new instance of the
   * menu's `type`, rendered. A restricted menu opens for a GM only.
   * @returns {Promise<ApplicationV2>}
   */
  async function openSettingsMenu(id) {
    const menu = ctx.game.settings.menus.get(id);
    if (!menu) throw new Error(`no settings menu ${id}`);
    if (menu.restricted && !ctx.game.user.isGM) throw new Error(`the settings menu ${id} is restricted to GMs`);
    const app = new menu.type();
    return app.render({ force: true });
  }

  return { ApplicationV2, HandlebarsApplicationMixin, FormDataExtended, registerMenu, openSettingsMenu };
}
