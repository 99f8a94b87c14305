import { createContext, type ReactNode, useContext, useMemo, useState } from 'react';
import { useGetOne, useTranslate } from 'react-admin';
import Lightbox from 'yet-another-react-lightbox';
import Captions from 'yet-another-react-lightbox/plugins/captions';
import 'yet-another-react-lightbox/styles.css';
import 'yet-another-react-lightbox/plugins/captions.css';
import { type CheckItem, type CheckRecord, type Device } from '../api/resources';

/** The records whose photos a lightbox steps through (the page on screen), and how to open one of them. */
interface Gallery {
  open(recordId: number): void;
}

const GalleryContext = createContext<Gallery | null>(null);

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A photo's caption: device and check item (title); status, time and inspector, then value and note. */
function CaptionTitle({ record }: { record: CheckRecord }) {
  const device = useGetOne<Device>('devices', { id: record.device });
  const item = useGetOne<CheckItem>('items', { id: record.item ?? 0 }, { enabled: record.item !== null });
  const deviceText = device.data ? `${device.data.code} · ${device.data.name}` : `#${record.device}`;
  return (
    <span data-testid="photo-caption-title">
      {deviceText}
      {record.item !== null && ` — ${item.data?.name ?? `#${record.item}`}`}
    </span>
  );
}

function CaptionDescription({ record }: { record: CheckRecord }) {
  const translate = useTranslate();
  const facts = [
    translate(`console.status.${record.status}`),
    dateTime.format(new Date(record.checked_at)),
    record.checked_by || '—',
  ];
  const said = [record.value, record.note].filter(Boolean).join(' · ');
  return (
    <span data-testid="photo-caption">
      {facts.join(' · ')}
      {said && (
        <>
          <br />
          {said}
        </>
      )}
    </span>
  );
}

/** A lightbox over records' photos: `index` is the one shown (-1: closed); previous / next when there are several. */
function PhotoLightbox({
  records,
  index,
  setIndex,
}: {
  records: CheckRecord[];
  index: number;
  setIndex: (index: number) => void;
}) {
  const translate = useTranslate();
  return (
    <Lightbox
      open={index >= 0}
      index={Math.max(index, 0)}
      close={() => setIndex(-1)}
      on={{ view: ({ index: viewed }) => setIndex(viewed) }}
      plugins={[Captions]}
      captions={{ descriptionMaxLines: 4, descriptionTextAlign: 'start' }}
      carousel={{ finite: true }}
      labels={{
        Previous: translate('console.records.previous_photo'),
        Next: translate('console.records.next_photo'),
        Close: translate('ra.action.close'),
        'Photo gallery': translate('console.records.photos'),
        Carousel: translate('console.records.photos'),
        Lightbox: translate('console.records.photos'),
        Slide: translate('console.records.photo'),
        '{index} of {total}': translate('console.records.photo_counter'),
      }}
      render={records.length <= 1 ? { buttonPrev: () => null, buttonNext: () => null } : undefined}
      slides={records.map((record) => ({
        src: record.photo ?? '',
        alt: translate('console.records.photo_of', { id: record.id }),
        title: <CaptionTitle record={record} />,
        description: <CaptionDescription record={record} />,
      }))}
    />
  );
}

/** The photos of a list of records (the page on screen) in one lightbox: a thumbnail opens it at its record. */
export function RecordPhotoGallery({ records, children }: { records: CheckRecord[]; children: ReactNode }) {
  const [index, setIndex] = useState(-1);
  const withPhotos = useMemo(() => records.filter((record) => record.photo), [records]);
  const gallery = useMemo<Gallery>(
    () => ({ open: (recordId) => setIndex(withPhotos.findIndex((record) => record.id === recordId)) }),
    [withPhotos],
  );
  return (
    <GalleryContext.Provider value={gallery}>
      {children}
      <PhotoLightbox records={withPhotos} index={index} setIndex={setIndex} />
    </GalleryContext.Provider>
  );
}

/** Opens a record's photo in the gallery around it, or alone (with its caption) outside any gallery. */
export function useOpenPhoto(record: CheckRecord): { open(): void; lightbox: ReactNode } {
  const gallery = useContext(GalleryContext);
  const [index, setIndex] = useState(-1);
  if (gallery) return { open: () => gallery.open(record.id), lightbox: null };
  return {
    open: () => setIndex(0),
    lightbox: <PhotoLightbox records={[record]} index={index} setIndex={setIndex} />,
  };
}
