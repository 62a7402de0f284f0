export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t py-6 text-center text-sm text-muted-foreground">
      <p className="font-medium text-foreground">Voxline: unlimited calls everywhere, right from your browser.</p>
      <p>Voxline Communications Ltd.</p>
      <p>
        © {year} Voxline. All rights reserved.
      </p>
    </footer>
  );
}
