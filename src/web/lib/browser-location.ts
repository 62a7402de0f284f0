/** Leaving the app for another page (a payment provider's checkout), or loading it again; an object so tests can replace it. */
export const browserLocation = {
  assign(url: string) {
    window.location.assign(url);
  },
  reload() {
    window.location.reload();
  },
};
