/**
 * The widget's own words. Month and weekday names and dates come from the browser's `Intl` in every
 * language; these strings are translated where we write the language with confidence, and English
 * elsewhere (docs/public-face.md lists which).
 */
import type { View } from './period'

export type WidgetMessages = {
  calendar: string
  previous: string
  next: string
  today: string
  views: Record<View, string>
  filters: string
  search: string
  category: string
  allCategories: string
  featuredOnly: string
  apply: string
  noEvents: string
  loading: string
  failed: string
  close: string
  eventTime: string
  yourTime: string
  allDay: string
  venue: string
  map: string
  organizer: string
  cost: string
  website: string
  addToCalendar: string
  download: string
  subscribe: string
  series: string
  seriesDates: string
  page: (page: number, pages: number) => string
  leftOut: (shown: number, total: number) => string
}

const EN: WidgetMessages = {
  calendar: 'Events calendar',
  previous: 'Previous',
  next: 'Next',
  today: 'Today',
  views: { month: 'Month', week: 'Week', list: 'List', day: 'Day' },
  filters: 'Filters',
  search: 'Search',
  category: 'Category',
  allCategories: 'All categories',
  featuredOnly: 'Featured only',
  apply: 'Apply',
  noEvents: 'No events',
  loading: 'Loading…',
  failed: 'The events could not be loaded',
  close: 'Close',
  eventTime: 'Time at the event',
  yourTime: 'Your time',
  allDay: 'All day',
  venue: 'Venue',
  map: 'Map',
  organizer: 'Organizer',
  cost: 'Cost',
  website: 'Website',
  addToCalendar: 'Add to calendar',
  download: 'Download (.ics)',
  subscribe: 'Subscribe to these events',
  series: 'Recurring series',
  seriesDates: 'Other dates of the series',
  page: (page, pages) => `Page ${page} of ${pages}`,
  leftOut: (shown, total) => `Showing the first ${shown} of ${total} events: filter to see the others`,
}

const FR: WidgetMessages = {
  calendar: 'Calendrier des évènements',
  previous: 'Précédent',
  next: 'Suivant',
  today: 'Aujourd’hui',
  views: { month: 'Mois', week: 'Semaine', list: 'Liste', day: 'Jour' },
  filters: 'Filtres',
  search: 'Rechercher',
  category: 'Catégorie',
  allCategories: 'Toutes les catégories',
  featuredOnly: 'Mis en avant seulement',
  apply: 'Appliquer',
  noEvents: 'Aucun évènement',
  loading: 'Chargement…',
  failed: 'Les évènements n’ont pas pu être chargés',
  close: 'Fermer',
  eventTime: 'Heure sur place',
  yourTime: 'Votre heure',
  allDay: 'Toute la journée',
  venue: 'Lieu',
  map: 'Carte',
  organizer: 'Organisateur',
  cost: 'Tarif',
  website: 'Site web',
  addToCalendar: 'Ajouter au calendrier',
  download: 'Télécharger (.ics)',
  subscribe: 'S’abonner à ces évènements',
  series: 'Série récurrente',
  seriesDates: 'Autres dates de la série',
  page: (page, pages) => `Page ${page} sur ${pages}`,
  leftOut: (shown, total) => `Les ${shown} premiers évènements sur ${total} : filtrez pour voir les autres`,
}

const DE: WidgetMessages = {
  calendar: 'Veranstaltungskalender',
  previous: 'Zurück',
  next: 'Weiter',
  today: 'Heute',
  views: { month: 'Monat', week: 'Woche', list: 'Liste', day: 'Tag' },
  filters: 'Filter',
  search: 'Suchen',
  category: 'Kategorie',
  allCategories: 'Alle Kategorien',
  featuredOnly: 'Nur hervorgehobene',
  apply: 'Anwenden',
  noEvents: 'Keine Veranstaltungen',
  loading: 'Wird geladen…',
  failed: 'Die Veranstaltungen konnten nicht geladen werden',
  close: 'Schließen',
  eventTime: 'Ortszeit der Veranstaltung',
  yourTime: 'Ihre Zeit',
  allDay: 'Ganztägig',
  venue: 'Veranstaltungsort',
  map: 'Karte',
  organizer: 'Veranstalter',
  cost: 'Preis',
  website: 'Website',
  addToCalendar: 'Zum Kalender hinzufügen',
  download: 'Herunterladen (.ics)',
  subscribe: 'Diese Veranstaltungen abonnieren',
  series: 'Wiederkehrende Serie',
  seriesDates: 'Weitere Termine der Serie',
  page: (page, pages) => `Seite ${page} von ${pages}`,
  leftOut: (shown, total) => `Die ersten ${shown} von ${total} Veranstaltungen: filtern Sie, um die anderen zu sehen`,
}

const ES: WidgetMessages = {
  calendar: 'Calendario de eventos',
  previous: 'Anterior',
  next: 'Siguiente',
  today: 'Hoy',
  views: { month: 'Mes', week: 'Semana', list: 'Lista', day: 'Día' },
  filters: 'Filtros',
  search: 'Buscar',
  category: 'Categoría',
  allCategories: 'Todas las categorías',
  featuredOnly: 'Solo destacados',
  apply: 'Aplicar',
  noEvents: 'No hay eventos',
  loading: 'Cargando…',
  failed: 'No se pudieron cargar los eventos',
  close: 'Cerrar',
  eventTime: 'Hora del evento',
  yourTime: 'Su hora',
  allDay: 'Todo el día',
  venue: 'Lugar',
  map: 'Mapa',
  organizer: 'Organizador',
  cost: 'Precio',
  website: 'Sitio web',
  addToCalendar: 'Añadir al calendario',
  download: 'Descargar (.ics)',
  subscribe: 'Suscribirse a estos eventos',
  series: 'Serie recurrente',
  seriesDates: 'Otras fechas de la serie',
  page: (page, pages) => `Página ${page} de ${pages}`,
  leftOut: (shown, total) => `Se muestran los primeros ${shown} de ${total} eventos: filtre para ver los demás`,
}

const IT: WidgetMessages = {
  calendar: 'Calendario degli eventi',
  previous: 'Precedente',
  next: 'Successivo',
  today: 'Oggi',
  views: { month: 'Mese', week: 'Settimana', list: 'Elenco', day: 'Giorno' },
  filters: 'Filtri',
  search: 'Cerca',
  category: 'Categoria',
  allCategories: 'Tutte le categorie',
  featuredOnly: 'Solo in evidenza',
  apply: 'Applica',
  noEvents: 'Nessun evento',
  loading: 'Caricamento…',
  failed: 'Impossibile caricare gli eventi',
  close: 'Chiudi',
  eventTime: 'Ora dell’evento',
  yourTime: 'La tua ora',
  allDay: 'Tutto il giorno',
  venue: 'Luogo',
  map: 'Mappa',
  organizer: 'Organizzatore',
  cost: 'Prezzo',
  website: 'Sito web',
  addToCalendar: 'Aggiungi al calendario',
  download: 'Scarica (.ics)',
  subscribe: 'Abbonati a questi eventi',
  series: 'Serie ricorrente',
  seriesDates: 'Altre date della serie',
  page: (page, pages) => `Pagina ${page} di ${pages}`,
  leftOut: (shown, total) => `Primi ${shown} eventi su ${total}: filtra per vedere gli altri`,
}

const PT_BR: WidgetMessages = {
  calendar: 'Calendário de eventos',
  previous: 'Anterior',
  next: 'Próximo',
  today: 'Hoje',
  views: { month: 'Mês', week: 'Semana', list: 'Lista', day: 'Dia' },
  filters: 'Filtros',
  search: 'Pesquisar',
  category: 'Categoria',
  allCategories: 'Todas as categorias',
  featuredOnly: 'Somente destaques',
  apply: 'Aplicar',
  noEvents: 'Nenhum evento',
  loading: 'Carregando…',
  failed: 'Não foi possível carregar os eventos',
  close: 'Fechar',
  eventTime: 'Horário do evento',
  yourTime: 'Seu horário',
  allDay: 'Dia inteiro',
  venue: 'Local',
  map: 'Mapa',
  organizer: 'Organizador',
  cost: 'Preço',
  website: 'Site',
  addToCalendar: 'Adicionar à agenda',
  download: 'Baixar (.ics)',
  subscribe: 'Assinar estes eventos',
  series: 'Série recorrente',
  seriesDates: 'Outras datas da série',
  page: (page, pages) => `Página ${page} de ${pages}`,
  leftOut: (shown, total) => `Mostrando os primeiros ${shown} de ${total} eventos: filtre para ver os outros`,
}

const AR: WidgetMessages = {
  calendar: 'تقويم الفعاليات',
  previous: 'السابق',
  next: 'التالي',
  today: 'اليوم',
  views: { month: 'شهر', week: 'أسبوع', list: 'قائمة', day: 'يوم' },
  filters: 'عوامل التصفية',
  search: 'بحث',
  category: 'التصنيف',
  allCategories: 'كل التصنيفات',
  featuredOnly: 'المميزة فقط',
  apply: 'تطبيق',
  noEvents: 'لا توجد فعاليات',
  loading: 'جارٍ التحميل…',
  failed: 'تعذّر تحميل الفعاليات',
  close: 'إغلاق',
  eventTime: 'التوقيت في مكان الفعالية',
  yourTime: 'توقيتك',
  allDay: 'طوال اليوم',
  venue: 'المكان',
  map: 'الخريطة',
  organizer: 'المنظّم',
  cost: 'السعر',
  website: 'الموقع الإلكتروني',
  addToCalendar: 'إضافة إلى التقويم',
  download: 'تنزيل (.ics)',
  subscribe: 'الاشتراك في هذه الفعاليات',
  series: 'سلسلة متكررة',
  seriesDates: 'مواعيد أخرى من السلسلة',
  page: (page, pages) => `الصفحة ${page} من ${pages}`,
  leftOut: (shown, total) => `عرض أول ${shown} من ${total} فعالية: استخدم التصفية لرؤية البقية`,
}

const RU: WidgetMessages = {
  calendar: 'Календарь мероприятий',
  previous: 'Назад',
  next: 'Вперёд',
  today: 'Сегодня',
  views: { month: 'Месяц', week: 'Неделя', list: 'Список', day: 'День' },
  filters: 'Фильтры',
  search: 'Поиск',
  category: 'Категория',
  allCategories: 'Все категории',
  featuredOnly: 'Только избранные',
  apply: 'Применить',
  noEvents: 'Нет мероприятий',
  loading: 'Загрузка…',
  failed: 'Не удалось загрузить мероприятия',
  close: 'Закрыть',
  eventTime: 'Время на месте',
  yourTime: 'Ваше время',
  allDay: 'Весь день',
  venue: 'Место',
  map: 'Карта',
  organizer: 'Организатор',
  cost: 'Стоимость',
  website: 'Сайт',
  addToCalendar: 'Добавить в календарь',
  download: 'Скачать (.ics)',
  subscribe: 'Подписаться на эти мероприятия',
  series: 'Повторяющаяся серия',
  seriesDates: 'Другие даты серии',
  page: (page, pages) => `Страница ${page} из ${pages}`,
  leftOut: (shown, total) => `Показаны первые ${shown} из ${total} мероприятий: уточните фильтр, чтобы увидеть остальные`,
}

const UK: WidgetMessages = {
  calendar: 'Календар подій',
  previous: 'Назад',
  next: 'Далі',
  today: 'Сьогодні',
  views: { month: 'Місяць', week: 'Тиждень', list: 'Список', day: 'День' },
  filters: 'Фільтри',
  search: 'Пошук',
  category: 'Категорія',
  allCategories: 'Усі категорії',
  featuredOnly: 'Лише вибрані',
  apply: 'Застосувати',
  noEvents: 'Немає подій',
  loading: 'Завантаження…',
  failed: 'Не вдалося завантажити події',
  close: 'Закрити',
  eventTime: 'Час на місці',
  yourTime: 'Ваш час',
  allDay: 'Увесь день',
  venue: 'Місце',
  map: 'Мапа',
  organizer: 'Організатор',
  cost: 'Вартість',
  website: 'Вебсайт',
  addToCalendar: 'Додати до календаря',
  download: 'Завантажити (.ics)',
  subscribe: 'Підписатися на ці події',
  series: 'Повторювана серія',
  seriesDates: 'Інші дати серії',
  page: (page, pages) => `Сторінка ${page} з ${pages}`,
  leftOut: (shown, total) => `Показано перші ${shown} з ${total} подій: уточніть фільтр, щоб побачити решту`,
}

const TR: WidgetMessages = {
  calendar: 'Etkinlik takvimi',
  previous: 'Önceki',
  next: 'Sonraki',
  today: 'Bugün',
  views: { month: 'Ay', week: 'Hafta', list: 'Liste', day: 'Gün' },
  filters: 'Filtreler',
  search: 'Ara',
  category: 'Kategori',
  allCategories: 'Tüm kategoriler',
  featuredOnly: 'Yalnızca öne çıkanlar',
  apply: 'Uygula',
  noEvents: 'Etkinlik yok',
  loading: 'Yükleniyor…',
  failed: 'Etkinlikler yüklenemedi',
  close: 'Kapat',
  eventTime: 'Etkinlik yerindeki saat',
  yourTime: 'Sizin saatiniz',
  allDay: 'Tüm gün',
  venue: 'Mekân',
  map: 'Harita',
  organizer: 'Düzenleyen',
  cost: 'Ücret',
  website: 'Web sitesi',
  addToCalendar: 'Takvime ekle',
  download: 'İndir (.ics)',
  subscribe: 'Bu etkinliklere abone ol',
  series: 'Yinelenen seri',
  seriesDates: 'Serinin diğer tarihleri',
  page: (page, pages) => `Sayfa ${page} / ${pages}`,
  leftOut: (shown, total) => `${total} etkinliğin ilk ${shown} tanesi gösteriliyor: diğerleri için filtreleyin`,
}

const MESSAGES: Record<string, WidgetMessages> = { en: EN, fr: FR, de: DE, es: ES, it: IT, 'pt-br': PT_BR, ar: AR, ru: RU, ua: UK, tr: TR }

export function widgetMessages(language: string): WidgetMessages {
  return MESSAGES[language] ?? EN
}
