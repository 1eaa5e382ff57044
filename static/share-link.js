// An invitation link, passed on from the phone: copied to the clipboard, or handed to the phone's share
// sheet where the browser has one (the Web Share API). Without this script the link is a read-only field
// to copy by hand, and the buttons stay hidden.

// Where the clipboard API is missing (a plain-http address in the club's network is not a secure
// context), the field's text is selected and copied the old way.
export async function copy(field, clipboard = globalThis.navigator && navigator.clipboard) {
  if (clipboard && clipboard.writeText) {
    try {
      await clipboard.writeText(field.value);
      return true;
    } catch (error) {
      /* refused (no permission, page not focused): try the old way */
    }
  }
  field.select();
  return typeof document.execCommand === "function" && document.execCommand("copy");
}

function enhance(box) {
  const field = document.getElementById(box.dataset.shareLink);
  const said = box.querySelector(".copied");
  const copyButton = box.querySelector("[data-copy]");
  const shareButton = box.querySelector("[data-share]");
  copyButton.hidden = false;
  copyButton.addEventListener("click", async () => {
    said.textContent = await copy(field) ? "Copied: paste it into a message." : "Select the link above and copy it.";
  });
  if (typeof navigator.share === "function") {
    shareButton.hidden = false;
    shareButton.addEventListener("click", () => {
      navigator.share({ title: box.dataset.shareTitle, text: box.dataset.shareText, url: field.value })
        .catch(() => { /* the sheet was closed without sharing */ });
    });
  }
}

if (typeof document !== "undefined") {
  document.querySelectorAll("[data-share-link]").forEach(enhance);
}
